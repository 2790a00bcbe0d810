package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// synapsScript answers a text turn, a tool call the default approval mode
// refuses, a slow turn to abort, and a compaction summary.
const synapsScript = `{"chunkSize": 4, "responses": [
  {"thinking": "plan", "text": "Hello from the script."},
  {"content": [{"type": "toolCall", "id": "call_1", "name": "bash", "arguments": {"command": "touch pwned"}}]},
  {"text": "It was refused."},
  {"text": "` + "slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow slow" + `"},
  {"text": "SUMMARY: greetings and a refused command."},
  {"text": "SUMMARY: the turn so far."}
], "tokensPerSecond": 40}`

// synapsFrame is one decoded stdout line.
type synapsFrame map[string]any

func (f synapsFrame) str(k string) string { s, _ := f[k].(string); return s }

func (f synapsFrame) kind() string {
	t := f.str("type")
	switch t {
	case "message_update":
		e, _ := f["event"].(map[string]any)
		s, _ := e["type"].(string)
		return s
	case "response":
		return "response(" + f.str("command") + ")"
	}
	return t
}

// synapsConn is a running synaps mode: its stdin and its stdout frames.
type synapsConn struct {
	t      *testing.T
	in     io.WriteCloser
	frames chan synapsFrame
	exit   chan int
}

// readFrames decodes stdout; a line that is not a JSON object fails the
// test (stdout carries frames only).
func (c *synapsConn) readFrames(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		var f synapsFrame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			c.t.Errorf("stdout line is not a frame: %q", sc.Text())
			continue
		}
		c.frames <- f
	}
	close(c.frames)
}

func (c *synapsConn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write stdin: %v", err)
	}
}

func (c *synapsConn) next(limit time.Duration) synapsFrame {
	c.t.Helper()
	select {
	case f, ok := <-c.frames:
		if !ok {
			c.t.Fatal("stdout ended")
		}
		return f
	case <-time.After(limit):
		c.t.Fatalf("no frame within %v", limit)
	}
	return nil
}

// until reads frames up to the response to command id, and returns their
// kinds and the last frame.
func (c *synapsConn) until(command, id string) ([]string, synapsFrame) {
	c.t.Helper()
	var kinds []string
	for {
		f := c.next(15 * time.Second)
		kinds = append(kinds, f.kind())
		if f.str("type") == "response" && f.str("command") == command && f.str("id") == id {
			return kinds, f
		}
	}
}

// waitExit waits for the exit code within limit.
func (c *synapsConn) waitExit(limit time.Duration) int {
	c.t.Helper()
	select {
	case code := <-c.exit:
		c.exit <- code // for the cleanup, which waits for the exit too
		return code
	case <-time.After(limit):
		c.t.Fatalf("cairn did not exit within %v", limit)
	}
	return -1
}

// synapsSetup makes a home with the faux script and a working directory.
func synapsSetup(t *testing.T) (home, script, cwd string) {
	home, cwd = t.TempDir(), t.TempDir()
	script = writeScript(t, synapsScript)
	settings := `{"compaction": {"enabled": false, "reserveTokens": 1000, "keepRecentTokens": 1}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, script, cwd
}

// startSynapsInProcess runs cairn's run() over pipes.
func startSynapsInProcess(t *testing.T, args ...string) (*synapsConn, string, string) {
	home, script, cwd := synapsSetup(t)
	t.Chdir(cwd)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &synapsConn{t: t, in: inW, frames: make(chan synapsFrame, 4096), exit: make(chan int, 1)}
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script}
	var stderr strings.Builder
	go func() {
		code := run(context.Background(), append([]string{"--provider", "faux"}, args...),
			IOStreams{In: inR, Out: outW, Err: &stderr}, func(k string) string { return vars[k] })
		outW.Close()
		c.exit <- code
	}()
	go c.readFrames(outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.exit:
		case <-time.After(10 * time.Second):
			t.Error("cairn did not exit")
		}
		for range c.frames {
		}
		inR.Close()
	})
	return c, home, cwd
}

// exerciseSynaps walks the seven synaps conformance checks over c, ending
// with a shutdown (or the end of stdin when eof is set).
func exerciseSynaps(t *testing.T, c *synapsConn, cwd string, eof bool) {
	// 1: ready first, fast.
	ready := c.next(2 * time.Second)
	if ready.str("type") != "ready" || ready["protocol_version"] != float64(1) || ready.str("model") != "faux-1" || ready.str("session_id") == "" {
		t.Fatalf("first frame %v", ready)
	}
	// 2: responses echo the id, bodies are flat.
	c.send(`{"type":"get_state","id":"s1"}`)
	if f := c.next(5 * time.Second); f.kind() != "response(get_state)" || f.str("id") != "s1" || f.str("session_id") != ready.str("session_id") || f["streaming"] != false {
		t.Fatalf("get_state: %v", f)
	}
	c.send(`{"type":"tools_list","id":"t1"}`)
	if f := c.next(5 * time.Second); f.kind() != "response(tools_list)" || f["ok"] != true || len(f["tools"].([]any)) == 0 {
		t.Fatalf("tools_list: %v", f)
	}
	// 3: malformed and oversized frames, then still alive.
	c.send(`{not json`)
	c.send(strings.Repeat("x", 1<<20+10))
	for range 2 {
		if f := c.next(5 * time.Second); f.str("type") != "error" || f["id"] != nil {
			t.Fatalf("bad frame: %v", f)
		}
	}
	// 4: a prompt streams, ends with agent_end then its response; a second
	// prompt meanwhile is refused.
	c.send(`{"type":"prompt","id":"p1","message":"hi"}`)
	c.send(`{"type":"prompt","id":"p2","message":"too soon"}`)
	kinds, resp := c.until("prompt", "p1")
	joined := strings.Join(kinds, " ")
	if resp["ok"] != true || !strings.Contains(joined, "thinking_delta") || !strings.Contains(joined, "text_delta") || !strings.HasSuffix(joined, "agent_end response(prompt)") {
		t.Fatalf("prompt p1: %s", joined)
	}
	if !strings.Contains(joined, "error") {
		t.Fatalf("the second prompt was not refused: %s", joined)
	}
	// A tool call that needs approval is refused and the turn goes on.
	c.send(`{"type":"prompt","id":"p3","message":"run it"}`)
	kinds, resp = c.until("prompt", "p3")
	joined = strings.Join(kinds, " ")
	if resp["ok"] != true || !strings.Contains(joined, "toolcall_start toolcall_input_delta") || !strings.Contains(joined, "toolcall_input toolcall_result") {
		t.Fatalf("prompt p3: %s", joined)
	}
	if _, err := os.Stat(filepath.Join(cwd, "pwned")); err == nil {
		t.Fatal("a call needing approval ran in synaps mode")
	}
	// 5: abort ordering.
	c.send(`{"type":"prompt","id":"p4","message":"talk slowly"}`)
	if f := c.next(10 * time.Second); f.kind() != "text_delta" {
		t.Fatalf("slow turn starts with %v", f)
	}
	c.send(`{"type":"abort","id":"a1"}`)
	kinds, resp = c.until("abort", "a1")
	n := len(kinds)
	if n < 3 || kinds[n-3] != "agent_end" || kinds[n-2] != "response(prompt)" || resp["ok"] != true {
		t.Fatalf("abort: %s", strings.Join(kinds, " "))
	}
	// 6: compact (disclosure first), then new_session.
	c.send(`{"type":"compact","id":"c1"}`)
	if f := c.next(5 * time.Second); f.kind() != "response(compact.disclosure)" || f.str("id") != "c1" {
		t.Fatalf("compact first: %v", f)
	}
	if f := c.next(15 * time.Second); f.kind() != "response(compact)" || f["ok"] != true || !strings.Contains(f.str("summary"), "SUMMARY") {
		t.Fatalf("compact: %v", f)
	}
	c.send(`{"type":"new_session","id":"n1"}`)
	if f := c.next(5 * time.Second); f.kind() != "response(new_session)" || f.str("session_id") == "" || f.str("session_id") == ready.str("session_id") {
		t.Fatalf("new_session: %v", f)
	}
	// 7: shutdown or EOF exits 0 within 5s.
	if eof {
		c.in.Close()
	} else {
		c.send(`{"type":"shutdown"}`)
	}
	if code := c.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// sessionFilesMention reports whether a session file under home holds s.
func sessionFilesMention(t *testing.T, home, s string) bool {
	t.Helper()
	found := false
	filepath.WalkDir(filepath.Join(home, "sessions"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			b, _ := os.ReadFile(path)
			found = found || strings.Contains(string(b), s)
		}
		return nil
	})
	return found
}

func TestSynapsModeInProcess(t *testing.T) {
	for name, args := range map[string][]string{
		"mode synaps":          {"--mode", "synaps"},
		"rpc dialect synaps":   {"--mode", "rpc", "--rpc-dialect", "synaps"},
		"eof ends the serving": {"--mode", "synaps"},
	} {
		t.Run(name, func(t *testing.T) {
			c, home, cwd := startSynapsInProcess(t, args...)
			exerciseSynaps(t, c, cwd, strings.HasPrefix(name, "eof"))
			if !sessionFilesMention(t, home, "talk slowly") {
				t.Fatal("the session file does not hold the conversation")
			}
		})
	}
}

// TestSynapsModeBinary spawns the built binary, as a synaps-bridge does.
func TestSynapsModeBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, eof := range []bool{false, true} {
		home, script, cwd := synapsSetup(t)
		cmd := exec.Command(bin, "--provider", "faux", "--mode", "synaps")
		cmd.Dir = cwd
		cmd.Env = append(os.Environ(), "CAIRN_DIR="+home, "CAIRN_FAUX_SCRIPT="+script)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		in, out := startPiped(t, cmd)
		c := &synapsConn{t: t, in: in, frames: make(chan synapsFrame, 4096), exit: make(chan int, 1)}
		readDone := make(chan struct{})
		go func() { c.readFrames(out); close(readDone) }()
		go func() {
			<-readDone
			cmd.Wait()
			c.exit <- cmd.ProcessState.ExitCode()
		}()
		t.Cleanup(func() {
			// After a failure midway the child may still run: end it.
			in.Close()
			select {
			case <-c.exit:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-c.exit
			}
		})
		exerciseSynaps(t, c, cwd, eof)
		if !sessionFilesMention(t, home, "talk slowly") {
			t.Fatalf("the session file does not hold the conversation; stderr: %s", stderr.String())
		}
	}
}

// --rpc-dialect picks the rpc protocol whatever the order of the flags.
func TestRPCDialectInAnyOrder(t *testing.T) {
	for _, args := range [][]string{
		{"--mode", "rpc", "--rpc-dialect", "synaps"},
		{"--rpc-dialect", "synaps", "--mode", "rpc"},
		{"--rpc-dialect", "synaps"},
		{"--mode", "synaps"},
	} {
		o, err := parseArgs(args)
		if err != nil || o.Mode != "synaps" {
			t.Errorf("%q: mode %v, err %v", args, o, err)
		}
	}
	if o, err := parseArgs([]string{"--rpc-dialect", "pi", "--mode", "rpc"}); err != nil || o.Mode != "rpc" {
		t.Errorf("--rpc-dialect pi: %v %v", o, err)
	}
	if _, err := parseArgs([]string{"--rpc-dialect", "synaps", "--mode", "acp"}); err == nil {
		t.Error("--rpc-dialect with --mode acp was accepted")
	}
}
