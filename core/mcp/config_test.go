package mcp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseStdioAndHTTP(t *testing.T) {
	data := []byte(`{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "server", "${ROOT}"], "env": {"TOKEN": "${TOKEN}", "MODE": "${MODE:-fast}"}, "cwd": "sub", "timeout": 5},
		"docs": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"old": {"type": "sse", "url": "http://localhost:1/sse"},
		"off": {"command": "x", "enabled": false}
	}}`)
	servers, err := Parse("/p/mcp.json", data, "/proj", env(map[string]string{"ROOT": "/r", "TOKEN": "t0k"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 4 {
		t.Fatalf("got %d servers", len(servers))
	}
	byName := map[string]Server{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	fs := byName["fs"]
	if fs.Transport != TransportStdio || fs.Command != "npx" || strings.Join(fs.Args, " ") != "-y server /r" ||
		fs.Env["TOKEN"] != "t0k" || fs.Env["MODE"] != "fast" || fs.Dir != filepath.Join("/proj", "sub") || fs.Timeout != 5*time.Second || fs.Source != "/p/mcp.json" {
		t.Errorf("fs = %+v", fs)
	}
	docs := byName["docs"]
	if docs.Transport != TransportHTTP || docs.Headers["Authorization"] != "Bearer t0k" || docs.Timeout != DefaultTimeout {
		t.Errorf("docs = %+v", docs)
	}
	if byName["old"].Transport != TransportSSE {
		t.Errorf("old = %+v", byName["old"])
	}
	if !byName["off"].Disabled {
		t.Error("enabled:false did not disable")
	}
}

func TestParseErrorsNameFileServerAndProblem(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{`, "/c.json: not valid JSON"},
		{`{"servers": {}}`, `no "mcpServers" object`},
		{`{"mcpServers": {"a": {"command": "x", "env": {"K": "${MISSING}"}}}}`, `/c.json: server "a": env.K: environment variable MISSING is not set`},
		{`{"mcpServers": {"a": {"url": "https://x/${NOPE}"}}}`, `server "a": url: environment variable NOPE is not set`},
		{`{"mcpServers": {"a": {}}}`, `server "a": needs "command"`},
		{`{"mcpServers": {"a": {"command": "x", "url": "http://y"}}}`, `has both "command" and "url"`},
		{`{"mcpServers": {"a b": {"command": "x"}}}`, `server "a b": the name may hold only`},
		{`{"mcpServers": {"a": {"url": "ftp://x"}}}`, `must start with http`},
		{`{"mcpServers": {"a": {"type": "websocket", "url": "http://x"}}}`, `unknown type "websocket"`},
		{`{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`, `"headers" apply to HTTP servers only`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": -1}}}`, `timeout must be`},
		{`{"mcpServers": {"a": {"command": 5}}}`, `not a valid server entry`},
		{`{"mcpServers": {"a": {"command": "x", "args": ["${unclosed"]}}}`, `args[0]: unclosed ${`},
	}
	for _, c := range cases {
		_, err := Parse("/c.json", []byte(c.json), "/", env(nil))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.json, err, c.want)
		}
	}
}

func TestParseKeepsValidServersBesideInvalidOnes(t *testing.T) {
	servers, err := Parse("/c.json", []byte(`{"mcpServers": {"bad": {}, "good": {"command": "x"}}}`), "/", env(nil))
	if err == nil || len(servers) != 1 || servers[0].Name != "good" {
		t.Fatalf("servers %+v, err %v", servers, err)
	}
}

func TestLoadFilesLaterFilesReplaceEarlierOnes(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	proj := filepath.Join(dir, "proj.json")
	write(t, user, `{"mcpServers": {"a": {"command": "user-a"}, "b": {"command": "user-b"}}}`)
	write(t, proj, `{"mcpServers": {"a": {"command": "proj-a"}}}`)
	cfg, err := LoadFiles([]File{{Path: user}, {Path: filepath.Join(dir, "missing.json")}, {Path: proj}}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 2 || cfg.Servers[0].Command != "proj-a" || cfg.Servers[1].Command != "user-b" {
		t.Fatalf("servers = %+v", cfg.Servers)
	}
}

func TestLoadFilesRefusesOversizedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	write(t, path, `{"mcpServers": {}, "pad": "`+strings.Repeat("x", MaxConfigSize)+`"}`)
	_, err := LoadFiles([]File{{Path: path}}, env(nil))
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err = %v", err)
	}
}

func TestProjectFiles(t *testing.T) {
	got := ProjectFiles("/repo", "/repo/svc")
	want := []string{"/repo/.mcp.json", "/repo/svc/.mcp.json", "/repo/svc/.cairn/mcp.json"}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].Path != want[i] || got[i].Dir != "/repo/svc" {
			t.Errorf("file %d = %+v, want %s", i, got[i], want[i])
		}
	}
}

func TestToolName(t *testing.T) {
	// Claude Code keeps hyphens and maps every other character outside
	// [A-Za-z0-9_-] to _.
	if got := ToolName("my-server", "get.file"); got != "mcp__my-server__get_file" {
		t.Errorf("got %s", got)
	}
	if got := LegacyToolName("my-server", "get.file"); got != "mcp__my_server__get_file" {
		t.Errorf("legacy name %s", got)
	}
	long := ToolName("server", strings.Repeat("x", 100))
	if len(long) != 64 || !strings.HasPrefix(long, "mcp__server__xxx") {
		t.Errorf("long name %s (%d)", long, len(long))
	}
	if ToolName("server", strings.Repeat("x", 100)+"a") == long {
		t.Error("two long names collided")
	}
	// Names that collide once sanitised all get a hash suffix.
	s := Server{Name: "s"}
	tools := Tools(nil, map[string][]ToolInfo{"s": {{Name: "a.b"}, {Name: "a_b"}, {Name: "c"}}}, []Server{s})
	a, b, c := tools[0].Spec().Name, tools[1].Spec().Name, tools[2].Spec().Name
	if a == b || !strings.HasPrefix(a, "mcp__s__a_b_") || !strings.HasPrefix(b, "mcp__s__a_b_") || c != "mcp__s__c" {
		t.Errorf("names %s %s %s", a, b, c)
	}
}

// FuzzToolName: every name is one providers accept (^[a-zA-Z0-9_-]{1,64}$)
// and starts with the server's part, and the legacy name differs from it
// only where the new one has a hyphen.
func FuzzToolName(f *testing.F) {
	f.Add("sequential-thinking", "sequentialthinking")
	f.Add("my.server", "get file")
	f.Add("héllo", strings.Repeat("x-", 60))
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	f.Fuzz(func(t *testing.T, server, tool string) {
		name, old := ToolName(server, tool), LegacyToolName(server, tool)
		if !valid.MatchString(name) || !valid.MatchString(old) {
			t.Fatalf("%q %q: names %q %q", server, tool, name, old)
		}
		if strings.Contains(old, "-") {
			t.Fatalf("legacy name %q has a hyphen", old)
		}
		if len(name) < maxToolName && old != strings.ReplaceAll(name, "-", "_") {
			t.Fatalf("legacy %q is not %q without hyphens", old, name)
		}
	})
}

// FuzzParse: no input makes Parse panic, and every server it accepts is
// usable: a name that fits tool names and exactly one transport.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["${A}"], "env": {"K": "${B:-x}"}}}}`))
	f.Add([]byte(`{"mcpServers": {"d": {"url": "https://x/${A}", "headers": {"H": "${A}"}, "type": "http"}}}`))
	f.Add([]byte(`{"mcpServers": {"a": {"type": "sse", "url": "http://x"}, "b": {}}}`))
	f.Add([]byte(`{"mcpServers": null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, _ := Parse("f.json", data, "/d", env(map[string]string{"A": "1"}))
		for _, s := range servers {
			if !serverName().MatchString(s.Name) {
				t.Fatalf("accepted name %q", s.Name)
			}
			switch s.Transport {
			case TransportStdio:
				if strings.TrimSpace(s.Command) == "" {
					t.Fatalf("stdio server without command: %+v", s)
				}
			case TransportHTTP, TransportSSE:
				if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
					t.Fatalf("accepted url %q", s.URL)
				}
			default:
				t.Fatalf("no transport: %+v", s)
			}
			if s.Timeout <= 0 {
				t.Fatalf("timeout %v", s.Timeout)
			}
		}
	})
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A configuration file that is a named pipe is refused, not opened: the
// open would block start-up until something wrote to it.
func TestConfigPipeIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	if _, err := readLimited(path, MaxConfigSize); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v", err)
	}
}
