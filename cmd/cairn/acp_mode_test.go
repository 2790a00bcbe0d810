package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// acpDriver runs `cairn --provider faux --mode acp` in-process.
type acpDriver struct {
	in    *io.PipeWriter
	lines chan string
	code  chan int
	errb  *strings.Builder
	send  func(id int, method string, params any)
}

func startACP(t testing.TB, vars map[string]string) *acpDriver {
	t.Helper()
	return startACPArgs(t, vars, "--provider", "faux", "--mode", "acp")
}

// startACPArgs runs cairn in-process with args.
func startACPArgs(t testing.TB, vars map[string]string, args ...string) *acpDriver {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	d := &acpDriver{in: inW, lines: make(chan string), code: make(chan int, 1), errb: &strings.Builder{}}
	streams := IOStreams{In: inR, Out: outW, Err: d.errb}
	go func() {
		c := run(context.Background(), args, streams, func(k string) string { return vars[k] })
		outW.Close()
		d.code <- c
	}()
	go func() {
		defer close(d.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			d.lines <- sc.Text()
		}
	}()
	d.send = func(id int, method string, params any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// next reads frames until one for which match holds; every line must be a
// JSON-RPC 2.0 object.
func (d *acpDriver) next(t testing.TB, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case l, ok := <-d.lines:
			if !ok {
				t.Fatalf("stdout ended before %s; stderr: %s", what, d.errb.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("stdout line is not a frame: %q", l)
			}
			if match(m) {
				return m
			}
		case <-timeout:
			t.Fatalf("no %s within 15s", what)
		}
	}
}

// await reads frames until the response to id.
func (d *acpDriver) await(t testing.TB, id int) map[string]any {
	t.Helper()
	return d.next(t, fmt.Sprintf("response %d", id), func(m map[string]any) bool { return m["method"] == nil && m["id"] == float64(id) })
}

// request reads frames until cairn's request of method.
func (d *acpDriver) request(t testing.TB, method string) map[string]any {
	t.Helper()
	return d.next(t, "a "+method+" request", func(m map[string]any) bool { return m["method"] == method && m["id"] != nil })
}

// answer replies to one of cairn's requests.
func (d *acpDriver) answer(t testing.TB, req map[string]any, result any) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": result})
	if _, err := d.in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

// finish ends stdin and waits for cairn to exit 0.
func (d *acpDriver) finish(t testing.TB) {
	t.Helper()
	d.in.Close()
	for range d.lines {
	}
	select {
	case c := <-d.code:
		if c != exitOK {
			t.Fatalf("exit %d; stderr: %s", c, d.errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("cairn did not exit within 15s of stdin ending")
	}
}

// TestACPModeMovesToTheSessionsDirectory starts cairn in one directory and
// opens a session in another, as an editor that spawned it elsewhere does:
// the tools work there, the other project's trust is its own (its
// .cairn/settings.json asking for yolo is not honoured until trusted), its
// sessions are listed for it, and the session file is written on exit.
func TestACPModeMovesToTheSessionsDirectory(t *testing.T) {
	start, proj, dir := t.TempDir(), t.TempDir(), t.TempDir()
	t.Chdir(start)
	if err := os.MkdirAll(filepath.Join(proj, ".cairn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".cairn", "settings.json"), []byte(`{"approvalMode":"yolo"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"responses":[{"content":[{"type":"toolCall","id":"call_1","name":"write","arguments":{"path":"made-here.txt","content":"hi\n"}}]},{"text":"written"}]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": script})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	d.send(2, "session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	res := d.await(t, 2)
	sid, _ := res["result"].(map[string]any)["sessionId"].(string)
	if sid == "" {
		t.Fatalf("session/new in another directory: %v; stderr: %s", res, d.errb.String())
	}
	if mode := fmt.Sprint(res["result"].(map[string]any)["modes"].(map[string]any)["currentModeId"]); mode != "default" {
		t.Errorf("mode %s in an untrusted project asking for yolo", mode)
	}
	d.send(3, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "write it"}}})
	// The untrusted project's trust is offered (not taken here), and its
	// yolo is not honoured: the write is asked about.
	perm := d.request(t, "session/request_permission")
	if id, _ := perm["params"].(map[string]any)["toolCall"].(map[string]any)["toolCallId"].(string); strings.HasPrefix(id, "cairn-trust-") {
		d.answer(t, perm, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "not_now"}})
		perm = d.request(t, "session/request_permission")
	}
	d.answer(t, perm, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}})
	if r := d.await(t, 3); fmt.Sprint(r["result"]) != "map[stopReason:end_turn]" {
		t.Errorf("prompt: %v", r)
	}
	if b, err := os.ReadFile(filepath.Join(proj, "made-here.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("made-here.txt in the session's directory: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(start, "made-here.txt")); err == nil {
		t.Error("the file was written in the directory cairn started in")
	}
	d.send(4, "session/list", map[string]any{"cwd": proj})
	if got := fmt.Sprint(d.await(t, 4)["result"]); !strings.Contains(got, sid) || !strings.Contains(got, "cwd:"+proj) {
		t.Errorf("session/list for %s: %s", proj, got)
	}
	d.finish(t)
	if !strings.Contains(d.errb.String(), proj) {
		t.Errorf("stderr does not name the untrusted project %s: %s", proj, d.errb.String())
	}
}

// TestACPModeEOFWritesSessionAndExitsZero drives `cairn --mode acp`
// in-process: every stdout line is a JSON-RPC frame, a text turn is
// answered end_turn, and when stdin ends cairn exits 0 with the
// conversation in its session file.
func TestACPModeEOFWritesSessionAndExitsZero(t *testing.T) {
	work, dir := t.TempDir(), t.TempDir()
	t.Chdir(work)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"responses":[{"text":"the answer about badgers"}]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": script})
	send, lines, code, errb := d.send, d.lines, d.code, d.errb
	await := func(id int) map[string]any { t.Helper(); return d.await(t, id) }
	inW := d.in
	send(1, "initialize", map[string]any{"protocolVersion": 1})
	if caps := fmt.Sprint(await(1)["result"]); !strings.Contains(caps, "loadSession:true") {
		t.Errorf("initialize: %s", caps)
	}
	send(2, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	sid, _ := await(2)["result"].(map[string]any)["sessionId"].(string)
	send(3, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "tell me about badgers"}}})
	if r := await(3); fmt.Sprint(r["result"]) != "map[stopReason:end_turn]" {
		t.Errorf("prompt: %v", r)
	}
	inW.Close()
	for range lines {
	}
	select {
	case c := <-code:
		if c != exitOK {
			t.Fatalf("exit %d; stderr: %s", c, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("cairn did not exit within 15s of stdin ending")
	}
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), "the answer about badgers") && strings.Contains(string(b), sid) {
				found = true
			}
		}
		return nil
	})
	if !found {
		t.Errorf("no session file under %s holds the turn of session %s", dir, sid)
	}
}

// TestACPClientMCPServer gives cairn the reference MCP server
// (server-everything, from npm) the way an editor does, in session/new's
// mcpServers, with a second server that cannot start. The first prompt
// waits for them; the model calls the echo tool, declared natively or
// through mcp_call, and the tool card names the MCP tool either way; the
// failed server is reported in the turn.
func TestACPClientMCPServer(t *testing.T) {
	t.Run("declared", func(t *testing.T) {
		testACPClientMCPServer(t, `{"type":"toolCall","id":"c1","name":"mcp__everything__echo","arguments":{"message":"from the editor's server"}}`)
	})
	t.Run("through mcp_call", func(t *testing.T) {
		testACPClientMCPServer(t, `{"type":"toolCall","id":"c1","name":"mcp_call","arguments":{"tool":"mcp__everything__echo","arguments":{"message":"from the editor's server"}}}`)
	})
}

func testACPClientMCPServer(t *testing.T, toolCall string) {
	srv := everythingServer(t)
	t.Chdir(t.TempDir())
	script := writeScript(t, `{"responses":[{"content":[`+toolCall+`]},{"text":"echoed"}]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": script})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	caps := fmt.Sprint(d.await(t, 1)["result"])
	if !strings.Contains(caps, "mcpCapabilities:map[http:true sse:true]") {
		t.Errorf("initialize: %s", caps)
	}
	cwd, _ := os.Getwd()
	d.send(2, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{
		map[string]any{"name": "everything", "command": srv["command"], "args": srv["args"], "env": []any{}},
		map[string]any{"name": "broken", "command": "false", "args": []any{}, "env": []any{}},
	}})
	res := d.await(t, 2)
	sid, _ := res["result"].(map[string]any)["sessionId"].(string)
	if sid == "" {
		t.Fatalf("session/new: %v; stderr: %s", res, d.errb.String())
	}
	d.send(3, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "echo"}}})
	failed := d.next(t, "the failed server's report", func(m map[string]any) bool {
		return strings.Contains(fmt.Sprint(m["params"]), `MCP server "broken" failed to start`)
	})
	if !strings.Contains(fmt.Sprint(failed["params"]), "agent_message_chunk") {
		t.Errorf("the failure was reported as %v", failed["params"])
	}
	card := d.next(t, "the echo call's card", func(m map[string]any) bool {
		u, _ := m["params"].(map[string]any)["update"].(map[string]any)
		return u != nil && u["sessionUpdate"] == "tool_call"
	})
	if u := card["params"].(map[string]any)["update"].(map[string]any); u["title"] != "mcp__everything__echo" {
		t.Errorf("tool card %v", u)
	}
	perm := d.request(t, "session/request_permission")
	if !strings.Contains(fmt.Sprint(perm["params"]), "mcp__everything__echo") {
		t.Errorf("permission request: %v", perm["params"])
	}
	d.answer(t, perm, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}})
	done := d.next(t, "the echo call's end", func(m map[string]any) bool {
		u, _ := m["params"].(map[string]any)["update"].(map[string]any)
		return u != nil && u["toolCallId"] == "c1" && (u["status"] == "completed" || u["status"] == "failed")
	})
	if got := fmt.Sprint(done["params"]); !strings.Contains(got, "status:completed") || !strings.Contains(got, "from the editor's server") {
		t.Errorf("the echo call ended: %s", got)
	}
	if r := d.await(t, 3); fmt.Sprint(r["result"]) != "map[stopReason:end_turn]" {
		t.Errorf("prompt: %v", r)
	}
	d.finish(t)
}
