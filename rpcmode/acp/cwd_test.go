package acp

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

func TestOtherDirectoryRefusedWithoutOpen(t *testing.T) {
	r := newRig(t, rigConfig{single: true})
	other := t.TempDir()
	l := r.response(r.call("session/new", map[string]any{"cwd": other, "mcpServers": []any{}}))
	if l.get("error.code") != float64(CodeInvalidParams) || !strings.Contains(l.str("error.message"), "start it in "+other) {
		t.Errorf("session/new in another directory: %s", l.text)
	}
}

// A session in another directory is a session of its own there; the
// directory cairn started in keeps its own.
func TestSessionNewInAnotherDirectory(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		editCall("call_1", "a.txt", "one", "two"), {Text: "edited"}}})
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "a.txt"), "one\n")
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	r.initWith(true, false, false)
	res := r.result("session/new", map[string]any{"cwd": other, "mcpServers": []any{}})
	sid, _ := res["sessionId"].(string)
	if sid == "" {
		t.Fatalf("no session id: %v", res)
	}
	id := r.prompt(sid, "edit a.txt")
	// The client's capabilities carry over to the new directory's tools.
	read := r.request("fs/read_text_file")
	if read.str("params.path") != filepath.Join(other, "a.txt") {
		t.Errorf("read %s, want the file of the new directory", read.str("params.path"))
	}
	r.answer(read, map[string]any{"content": "one\n"})
	call := r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	if !strings.Contains(call.text, filepath.Join(other, "a.txt")) {
		t.Errorf("the edit's location: %s", call.text)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := readFile(t, filepath.Join(other, "a.txt")); got != "two\n" {
		t.Errorf("%s/a.txt = %q", other, got)
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "one\n" {
		t.Errorf("the first directory's a.txt = %q, want it untouched", got)
	}
	r.mu.Lock()
	opened, closed := slices.Clone(r.opened), slices.Clone(r.closed)
	r.mu.Unlock()
	if !slices.Equal(opened, []string{other}) {
		t.Errorf("opened %v", opened)
	}
	if len(closed) != 0 {
		t.Errorf("closed %v while the session was open", closed)
	}
	// Serve closes the session it opened; the host's own is the caller's.
	if err := r.close(); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	closed = slices.Clone(r.closed)
	r.mu.Unlock()
	if !slices.Equal(closed, []string{other}) {
		t.Errorf("closed %v, want the other directory's session", closed)
	}
}

// A new session while another one's prompt waits for a permission: the
// new one opens and answers, and the first goes on.
func TestSessionNewWhilePrompting(t *testing.T) {
	r := newRig(t, rigConfig{responses: []faux.Response{editCall("call_1", "a.txt", "one", "two"), {Text: "left it"}}})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	sid := r.newSession()
	id := r.prompt(sid, "edit")
	perm := r.request("session/request_permission")
	other := t.TempDir()
	l := r.response(r.call("session/new", map[string]any{"cwd": other, "mcpServers": []any{}}))
	if l.str("result.sessionId") == "" || l.str("result.sessionId") == sid {
		t.Errorf("session/new during a prompt: %s", l.text)
	}
	r.answer(perm, selected(optionOfKind(t, perm, "reject_once")))
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("the first session's prompt ended %q", got)
	}
	if o := r.openedDirs(); !slices.Equal(o, []string{other}) {
		t.Errorf("opened %v", o)
	}
}

func TestMoveToAMissingDirectory(t *testing.T) {
	r := newRig(t, rigConfig{})
	missing := filepath.Join(t.TempDir(), "gone")
	l := r.response(r.call("session/new", map[string]any{"cwd": missing, "mcpServers": []any{}}))
	if l.get("error.code") != float64(CodeInvalidParams) || !strings.Contains(l.str("error.message"), missing+" is not a directory") {
		t.Errorf("session/new in a missing directory: %s", l.text)
	}
}

func TestLoadInAnotherDirectoryNeedsTheSession(t *testing.T) {
	r := newRig(t, rigConfig{files: true})
	other := t.TempDir()
	l := r.response(r.call("session/load", map[string]any{"sessionId": "nope", "cwd": other, "mcpServers": []any{}}))
	if l.get("error.code") != float64(CodeResourceNotFound) || !strings.Contains(l.str("error.message"), "no session nope in "+other) {
		t.Errorf("session/load of an unknown session elsewhere: %s", l.text)
	}
	if o := r.openedDirs(); len(o) != 0 {
		t.Errorf("moved to %v for a session that is not there", o)
	}
	// session/list for another directory without a lister is empty.
	res := r.result("session/list", map[string]any{"cwd": other})
	if s, _ := res["sessions"].([]any); len(s) != 0 {
		t.Errorf("sessions of another directory: %v", s)
	}
}

func TestClientMCPServersBuildASession(t *testing.T) {
	r := newRig(t, rigConfig{})
	init := r.result("initialize", map[string]any{"protocolVersion": 1})
	if mcp := init["agentCapabilities"].(map[string]any)["mcpCapabilities"].(map[string]any); mcp["http"] != true || mcp["sse"] != true {
		t.Errorf("mcpCapabilities with Open = %v", mcp)
	}
	servers := []any{
		map[string]any{"name": "files", "command": "/usr/bin/mcp-files", "args": []string{"--ro"}, "env": []any{map[string]any{"name": "K", "value": "v"}}},
		map[string]any{"type": "http", "name": "web", "url": "https://example.test/mcp", "headers": []any{map[string]any{"name": "Authorization", "value": "Bearer x"}}},
	}
	// The same directory with no servers: the host's own session.
	r.result("session/new", map[string]any{"cwd": r.cwd, "mcpServers": []any{}})
	// With servers: a session that has them, each time a session of its
	// own.
	r.result("session/new", map[string]any{"cwd": r.cwd, "mcpServers": servers})
	r.result("session/new", map[string]any{"cwd": r.cwd, "mcpServers": servers})
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.servers) != 2 || len(r.servers[0]) != 2 || len(r.servers[1]) != 2 {
		t.Fatalf("Open was given %v", r.servers)
	}
	f, w := r.servers[0][0], r.servers[0][1]
	if f.Name != "files" || f.Command != "/usr/bin/mcp-files" || f.Env["K"] != "v" || f.Dir != r.cwd || f.Args[0] != "--ro" {
		t.Errorf("stdio server = %+v", f)
	}
	if w.Name != "web" || w.URL != "https://example.test/mcp" || w.Headers["Authorization"] != "Bearer x" || w.Transport != "http" {
		t.Errorf("http server = %+v", w)
	}
}

func TestClientMCPServersAreChecked(t *testing.T) {
	r := newRig(t, rigConfig{})
	for servers, want := range map[string]string{
		`[{"command":"x"}]`:                                       `mcpServers[0]: "name" is required`,
		`[{"name":"a"}]`:                                          `a stdio server needs "command"`,
		`[{"name":"a","command":"./s"}]`:                          `must be absolute or a name found on PATH`,
		`[{"name":"a","type":"http","url":"ftp:"}]`:               `an http server needs an http or https "url"`,
		`[{"name":"a","type":"ws","url":"x"}]`:                    `does not know the transport "ws"`,
		`[{"name":"a","command":"x"},{"name":"a","command":"y"}]`: `the name "a" is used twice`,
		`[{"name":"a","command":"x","env":[{"name":"K"}]}]`:       `env[0] needs "name" and "value"`,
		`{"name":"a"}`:                                            `"mcpServers" must be an array`,
	} {
		var raw any
		if err := json.Unmarshal([]byte(servers), &raw); err != nil {
			t.Fatal(err)
		}
		l := r.response(r.call("session/new", map[string]any{"cwd": r.cwd, "mcpServers": raw}))
		if l.get("error.code") != float64(CodeInvalidParams) || !strings.Contains(l.str("error.message"), want) {
			t.Errorf("%s: %s, want %q", servers, l.text, want)
		}
	}
	if o := r.openedDirs(); len(o) != 0 {
		t.Errorf("opened %v for invalid servers", o)
	}
}

func FuzzClientMCPServers(f *testing.F) {
	f.Add(`[{"name":"a","command":"/bin/x","args":["1"],"env":[{"name":"K","value":"V"}]}]`)
	f.Add(`[{"type":"sse","name":"b","url":"http://h/sse","headers":[]}]`)
	f.Add(`null`)
	f.Add(`[{}]`)
	f.Fuzz(func(t *testing.T, raw string) {
		servers, err := clientMCPServers(json.RawMessage(raw), "/w")
		if err != nil {
			if servers != nil || err.Code != CodeInvalidParams {
				t.Fatalf("error %v with servers %v", err, servers)
			}
			return
		}
		names := map[string]bool{}
		for _, s := range servers {
			if s.Name == "" || names[s.Name] || (s.Command == "" && s.URL == "") || s.Dir != "/w" {
				t.Fatalf("accepted %+v from %s", s, raw)
			}
			names[s.Name] = true
		}
	})
}

func (r *rig) openedDirs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.opened)
}
