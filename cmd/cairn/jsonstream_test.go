package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/session"
)

func TestJSONStreamArgs(t *testing.T) {
	o, err := parseJSONStreamArgs([]string{"--json-stream", "--provider", "anthropic", "--model=claude-x", "--max-tokens", "8192",
		"--max-turns", "30", "--system-prompt", "be brief", "--auto-approve", "--workspace", "/tmp", "--session-id", "c1", "--base-url", "http://x"})
	if err != nil {
		t.Fatal(err)
	}
	want := jsonStreamOptions{provider: "anthropic", model: "claude-x", baseURL: "http://x", systemPrompt: "be brief",
		maxTokens: 8192, maxTurns: 30, autoApprove: true, workspace: "/tmp", sessionID: "c1"}
	if *o != want {
		t.Fatalf("parsed %+v", *o)
	}
	for args, msg := range map[string]string{
		"--json-stream --mode rpc":                "unknown argument --mode",
		"--json-stream hello":                     "unknown argument hello",
		"--json-stream --model":                   "--model needs a value",
		"--json-stream --max-turns 0":             "--max-turns needs a positive number",
		"--json-stream --max-tokens lots":         "--max-tokens needs a positive number",
		"--json-stream --auto-approve=yes":        "takes no value",
		"--json-stream --session-id a --resume b": "cannot be used together",
		"--json-stream --resume=":                 "--resume needs a value",
	} {
		if _, err := parseJSONStreamArgs(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", args, err, msg)
		}
	}
}

// A start that fails says why in a config_error frame (and on stderr) and
// exits non-zero.
func TestJSONStreamStartErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	empty := ""
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--json-stream", "--frobnicate"}, exitUsage, "unknown argument --frobnicate"},
		{[]string{"--json-stream", "--provider", "faux", "--resume", "nope"}, exitFailure, "no session with that id"},
		{[]string{"--json-stream", "--provider", "faux", "--resume", "latest"}, exitFailure, "no session found"},
		{[]string{"--json-stream", "--workspace", "/does/not/exist"}, exitUsage, "--workspace"},
	} {
		r := invoke(t, nil, &empty, c.args...)
		var f struct {
			Type  string  `json:"type"`
			MsgID *string `json:"msg_id"`
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if r.code != c.code || strings.Count(r.stdout, "\n") != 1 || json.Unmarshal([]byte(r.stdout), &f) != nil {
			t.Errorf("%v: %+v", c.args, r)
			continue
		}
		if f.Type != "error" || f.MsgID != nil || f.Error.Code != "config_error" || !strings.Contains(f.Error.Message, c.msg) || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: frame %+v, stderr %q", c.args, f, r.stderr)
		}
	}
}

// jsonStreamPeer drives a json-stream child (in-process or spawned)
// through its pipes.
type jsonStreamPeer struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func newJSONStreamPeer(t *testing.T, in io.WriteCloser, out io.Reader) *jsonStreamPeer {
	p := &jsonStreamPeer{t: t, in: in, lines: make(chan string, 256)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	return p
}

func (p *jsonStreamPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// next returns the next frame; stdout must carry nothing but frames.
func (p *jsonStreamPeer) next() map[string]any {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("stdout ended")
		}
		var f map[string]any
		if err := json.Unmarshal([]byte(l), &f); err != nil || f["type"] == nil {
			p.t.Fatalf("stdout line is not a frame: %q", l)
		}
		return f
	case <-time.After(20 * time.Second):
		p.t.Fatal("no frame within 20s")
	}
	return nil
}

// until returns the frame types up to and including typ, and that frame.
func (p *jsonStreamPeer) until(typ string) (string, map[string]any) {
	p.t.Helper()
	var ts []string
	for {
		f := p.next()
		ts = append(ts, f["type"].(string))
		if f["type"] == typ {
			return strings.Join(ts, ","), f
		}
	}
}

// The adapter wired by run: ready, a text turn, EOF exits 0 with the
// session written.
func TestJSONStreamInProcess(t *testing.T) {
	work, dir := t.TempDir(), t.TempDir()
	t.Chdir(work)
	script := writeScript(t, `{"responses": [{"thinking": "hmm", "text": "Hello from the script."}]}`)
	vars := map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": script}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncWriter
	code := make(chan int, 1)
	go func() {
		c := run(context.Background(), []string{"--json-stream", "--provider", "faux", "--max-tokens", "500"},
			IOStreams{In: inR, Out: outW, Err: &stderr}, func(k string) string { return vars[k] })
		outW.Close()
		code <- c
	}()
	p := newJSONStreamPeer(t, inW, outR)
	ready := p.next()
	caps, _ := ready["capabilities"].(map[string]any)
	if ready["type"] != "ready" || ready["session_id"] == "" || caps["current_mode"] != "default" {
		t.Fatalf("ready = %v", ready)
	}
	p.send(`{"type":"message","msg_id":"m1","input":"hello"}`)
	if got, _ := p.until("stream_end"); got != "stream_start,thinking,text_delta,text_delta,stream_end" {
		t.Fatalf("frames = %s", got)
	}
	inW.Close()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d; stderr %s", c, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after EOF")
	}
	path, err := session.Store{Root: filepath.Join(dir, "sessions")}.Latest(work)
	if err != nil {
		t.Fatalf("no session file: %v", err)
	}
	f, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := len(f.Context().Messages); n < 2 || f.Header().ID != ready["session_id"] {
		t.Fatalf("session has %d messages, id %s (ready said %v)", n, f.Header().ID, ready["session_id"])
	}
	if m := f.Context().Model; m == nil || m.ModelID != "faux-1" {
		t.Fatalf("model = %+v", m)
	}
}

// The built binary, as AionUi spawns it: --workspace and --session-id,
// an approval round trip, EOF exits 0; then --resume by the host's id
// continues the same conversation, and the id cannot be reused.
func TestJSONStreamBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	work, dir := t.TempDir(), t.TempDir()
	spawn := func(script string, args ...string) (*jsonStreamPeer, func() (int, string)) {
		cmd := exec.Command(bin, append([]string{"--json-stream", "--provider", "faux", "--workspace", work}, args...)...)
		cmd.Dir = t.TempDir() // --workspace, not the cwd, decides
		cmd.Env = append(os.Environ(), "CAIRN_DIR="+dir, "CAIRN_FAUX_SCRIPT="+writeScript(t, script))
		var stderr syncWriter
		cmd.Stderr = &stderr
		stdin, stdout := startPiped(t, cmd)
		kill := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
		t.Cleanup(func() { kill.Stop() })
		wait := func() (int, string) {
			_ = stdin.Close()
			err := cmd.Wait()
			kill.Stop()
			if err != nil {
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode(), stderr.String()
				}
				t.Fatal(err)
			}
			return 0, stderr.String()
		}
		return newJSONStreamPeer(t, stdin, stdout), wait
	}

	p, wait := spawn(`{"responses": [
	  {"content": [{"type": "toolCall", "id": "call-1", "name": "write", "arguments": {"path": "hello.txt", "content": "hi\n"}}]},
	  {"text": "Wrote it."}]}`, "--session-id", "conv-1")
	if ready := p.next(); ready["type"] != "ready" || ready["session_id"] != "conv-1" {
		t.Fatalf("ready = %v", ready)
	}
	p.send(`{"type":"message","msg_id":"m1","input":"write hello.txt"}`)
	got, req := p.until("tool_request")
	tool, _ := req["tool"].(map[string]any)
	if got != "stream_start,tool_request" || req["call_id"] != "call-1" || tool["category"] != "edit" {
		t.Fatalf("frames %s, request %v", got, req)
	}
	p.send(`{"type":"tool_approve","call_id":"call-1","scope":"once"}`)
	if got, _ := p.until("stream_end"); got != "tool_running,tool_result,text_delta,stream_end" {
		t.Fatalf("frames = %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(work, "hello.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("hello.txt = %q, %v (the workspace was not used)", b, err)
	}
	if code, stderr := wait(); code != 0 {
		t.Fatalf("exit %d after EOF; stderr:\n%s", code, stderr)
	}

	for _, ref := range []string{"conv-1", "latest"} {
		p, wait = spawn(`{"responses": [{"text": "Still here."}]}`, "--resume", ref)
		ready := p.next()
		if ready["type"] != "ready" || (ref == "conv-1" && ready["session_id"] != "conv-1") {
			t.Fatalf("--resume %s: ready = %v", ref, ready)
		}
		p.send(fmt.Sprintf(`{"type":"message","msg_id":"r-%s","input":"are you there"}`, ref))
		if got, _ := p.until("stream_end"); got != "stream_start,text_delta,stream_end" {
			t.Fatalf("--resume %s: frames = %s", ref, got)
		}
		if code, stderr := wait(); code != 0 {
			t.Fatalf("--resume %s: exit %d; stderr:\n%s", ref, code, stderr)
		}
	}
	store := session.Store{Root: filepath.Join(dir, "sessions")}
	infos, err := store.List(work)
	if err != nil || len(infos) != 1 {
		t.Fatalf("sessions = %+v, %v (resume must continue the same one)", infos, err)
	}
	f, err := session.Open(infos[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range f.Context().Messages {
		if m.MessageRole() == "user" {
			b, _ := json.Marshal(m)
			users = append(users, string(b))
		}
	}
	_ = f.Close()
	if infos[0].Name != "conv-1" || len(users) != 3 || !strings.Contains(users[0], "write hello.txt") {
		t.Fatalf("name %q, user messages %v", infos[0].Name, users)
	}

	p, wait = spawn(`{"responses": []}`, "--session-id", "conv-1")
	if f := p.next(); f["type"] != "error" || !strings.Contains(fmt.Sprint(f["error"]), "already exists") {
		t.Fatalf("reused --session-id: %v", f)
	}
	if code, _ := wait(); code != exitFailure {
		t.Fatalf("reused --session-id: exit %d", code)
	}
}

// syncWriter collects stderr written from another goroutine.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
