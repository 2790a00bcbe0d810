package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vscodeFile is shaped after the example in VS Code's documentation
// ("Add and manage MCP servers in VS Code", .vscode/mcp.json): comments,
// an input for a key, stdio and http servers, a trailing comma, and
// ${workspaceFolder}.
const vscodeFile = `{
  // Inputs are asked for by VS Code on first start.
  "inputs": [
    {"type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true}
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}
    },
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch", "${workspaceFolder}"], "env": {"TOKEN": "${env:FETCH_TOKEN}"}},
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}, // trailing comma next
  },
}`

// zedFile is shaped after Zed's documentation ("Model Context Protocol",
// settings.json context_servers): a custom command, a remote server, the
// older nested "command" object and a server from an extension.
const zedFile = `{
  "theme": "One Dark",
  /* MCP servers */
  "context_servers": {
    "run-command": {"source": "custom", "command": "some-command", "args": ["arg-1"], "env": {"K": "v"}},
    "remote-mcp-server": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${ZED_TOKEN}"}},
    "old-style": {"command": {"path": "node", "args": ["server.js"], "env": {}}, "settings": {}},
    "postgres": {"source": "extension", "settings": {"database_url": "postgres://"}},
  },
}`

// claudeUserFile is shaped after the ~/.claude.json Claude Code writes for
// `claude mcp add --scope user` and `--scope local`: the person's servers,
// and each project's beside its other state.
const claudeUserFile = `{
  "numStartups": 12,
  "mcpServers": {"sequential-thinking": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-sequential-thinking"], "env": {}}},
  "projects": {
    "/work/app": {"allowedTools": [], "mcpServers": {"db": {"type": "stdio", "command": "db-mcp", "args": []}}},
    "/work/other": {"mcpServers": {"other": {"command": "x"}}}
  }
}`

func writeConfig(t *testing.T, rel, text string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestVSCodeFile(t *testing.T) {
	dir := writeConfig(t, ".vscode/mcp.json", vscodeFile)
	cfg, err := LoadFiles(OtherClientProjectFiles(dir)[:1], env(map[string]string{"FETCH_TOKEN": "t0k"}))
	if err == nil || !strings.Contains(err.Error(), `VS Code input "perplexity-key"`) || !strings.Contains(err.Error(), "${env:NAME}") {
		t.Errorf("the input was not reported: %v", err)
	}
	fetch, ok := cfg.Find("fetch")
	if !ok || fetch.Command != "uvx" || fetch.Args[1] != dir || fetch.Env["TOKEN"] != "t0k" {
		t.Errorf("fetch: %+v", fetch)
	}
	if gh, ok := cfg.Find("github"); !ok || gh.Transport != TransportHTTP || gh.URL != "https://api.githubcopilot.com/mcp/" {
		t.Errorf("github: %+v", gh)
	}
	if _, ok := cfg.Find("Perplexity"); ok {
		t.Error("a server needing an input was started")
	}
}

func TestZedFile(t *testing.T) {
	dir := writeConfig(t, ".zed/settings.json", zedFile)
	cfg, err := LoadFiles(OtherClientProjectFiles(dir)[2:], env(map[string]string{"ZED_TOKEN": "z"}))
	if err == nil || !strings.Contains(err.Error(), `"postgres" comes from a Zed extension`) {
		t.Errorf("the extension's server was not reported: %v", err)
	}
	if s, ok := cfg.Find("run-command"); !ok || s.Command != "some-command" || s.Args[0] != "arg-1" || s.Env["K"] != "v" {
		t.Errorf("run-command: %+v", s)
	}
	if s, ok := cfg.Find("remote-mcp-server"); !ok || s.Headers["Authorization"] != "Bearer z" {
		t.Errorf("remote: %+v", s)
	}
	if s, ok := cfg.Find("old-style"); !ok || s.Command != "node" || s.Args[0] != "server.js" {
		t.Errorf("old-style: %+v", s)
	}
	// Zed settings without MCP servers are no error.
	dir = writeConfig(t, ".zed/settings.json", `{"theme": "x", // comment
	}`)
	if cfg, err := LoadFiles(OtherClientProjectFiles(dir)[2:], env(nil)); err != nil || len(cfg.Servers) != 0 {
		t.Errorf("plain settings: %+v %v", cfg, err)
	}
}

func TestCursorFile(t *testing.T) {
	// Shaped after Cursor's documentation (.cursor/mcp.json): Claude
	// Code's mcpServers format.
	dir := writeConfig(t, ".cursor/mcp.json", `{"mcpServers": {"web-search": {"command": "npx", "args": ["-y", "web-search-mcp"]}}}`)
	cfg, err := LoadFiles(OtherClientProjectFiles(dir)[1:2], env(nil))
	if s, ok := cfg.Find("web-search"); err != nil || !ok || s.Command != "npx" {
		t.Errorf("%+v %v", cfg, err)
	}
}

func TestClaudeUserFile(t *testing.T) {
	home := writeConfig(t, ".claude.json", claudeUserFile)
	cfg, err := LoadFiles([]File{ClaudeUserFile(home, "/work/app")}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "db sequential-thinking" {
		t.Errorf("servers %v, want the person's and /work/app's", names)
	}
}

func FuzzOtherClientFiles(f *testing.F) {
	f.Add(vscodeFile, 0)
	f.Add(zedFile, 1)
	f.Add(claudeUserFile, 2)
	f.Add(`{"servers": {"a": {"command": "${input:x}${userHome}${foo:bar}"}}}`, 0)
	f.Fuzz(func(t *testing.T, text string, which int) {
		format := []Format{FormatVSCode, FormatZed, FormatClaudeUser}[(which%3+3)%3]
		servers, _ := parseFormat(File{Path: "f", Format: format, Project: "/p"}, []byte(text), "/d", env(map[string]string{"HOME": "/h"}))
		for _, s := range servers {
			if !serverName().MatchString(s.Name) || (s.Command == "") == (s.URL == "") {
				t.Fatalf("server %+v", s)
			}
		}
	})
}
