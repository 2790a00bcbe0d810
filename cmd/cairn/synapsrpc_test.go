package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bridgeScript answers two one-line turns.
const bridgeScript = `{"responses": [{"text": "Noted, thread one."}, {"text": "Noted, thread two."}, {"text": "Back in thread one."}]}`

// startBridgeChild runs `cairn <args>` in process with home as CAIRN_DIR,
// as the synaps-bridge spawns its binary, and returns the connection; a
// start that fails returns the exit code and stderr instead.
func startBridgeChild(t *testing.T, home, script string, args ...string) (*synapsConn, *syncWriter) {
	t.Helper()
	return startChildWith(t, map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script}, args...)
}

// startChildWith is startBridgeChild with the whole environment cairn
// reads (vars).
func startChildWith(t *testing.T, vars map[string]string, args ...string) (*synapsConn, *syncWriter) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &synapsConn{t: t, in: inW, frames: make(chan synapsFrame, 4096), exit: make(chan int, 1)}
	stderr := &syncWriter{}
	go func() {
		code := run(context.Background(), args, IOStreams{In: inR, Out: outW, Err: stderr}, func(k string) string { return vars[k] })
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
	return c, stderr
}

// talk sends one prompt and shuts the child down; it returns ready's
// session id.
func talk(t *testing.T, c *synapsConn, prompt string) string {
	t.Helper()
	ready := c.next(15 * time.Second)
	if ready.str("type") != "ready" {
		t.Fatalf("first frame %v", ready)
	}
	c.send(`{"type":"prompt","id":"p","message":"` + prompt + `"}`)
	if _, f := c.until("prompt", "p"); f["ok"] != true {
		t.Fatalf("prompt: %v", f)
	}
	c.send(`{"type":"shutdown"}`)
	if code := c.waitExit(15 * time.Second); code != 0 {
		t.Fatalf("exit %d after shutdown", code)
	}
	return ready.str("session_id")
}

// The synaps-bridge's command line: `BINARY rpc [--continue ID] [--system
// S] [--model M]`. Two threads, then the first resumed by its id: the
// child continues exactly that conversation, though the second is newer.
func TestSynapsBridgeCommandLine(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	script := writeScript(t, bridgeScript)
	system := filepath.Join(t.TempDir(), "system.md")
	if err := os.WriteFile(system, []byte("You answer Slack threads."), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := startBridgeChild(t, home, script, "rpc", "--system", system, "--model", "faux-1", "--provider", "faux")
	first := talk(t, c, "thread one: remember the walrus")
	c, _ = startBridgeChild(t, home, script, "rpc", "--system", "plain text prompt", "--model", "faux-1", "--provider", "faux")
	if second := talk(t, c, "thread two: remember the heron"); second == first {
		t.Fatalf("two threads got one session %s", first)
	}

	// The id, and a prefix of it (ids start with their time, so a short
	// prefix could name both threads: that is refused, see session.Match).
	for _, ref := range []string{first, first[:len(first)-4]} {
		c, stderr := startBridgeChild(t, home, script, "rpc", "--continue", ref, "--model", "faux-1", "--provider", "faux")
		ready := c.next(15 * time.Second)
		if ready.str("type") != "ready" || ready.str("session_id") != first {
			t.Fatalf("--continue %s: ready %v (want session %s); stderr %s", ref, ready, first, stderr.String())
		}
		c.send(`{"type":"get_messages","id":"m"}`)
		_, f := c.until("get_messages", "m")
		msgs, _ := f["messages"].([]any)
		var text strings.Builder
		for _, m := range msgs {
			text.WriteString(strings.ToLower(strings.TrimSpace(toJSON(t, m))))
		}
		if !strings.Contains(text.String(), "walrus") || strings.Contains(text.String(), "heron") {
			t.Fatalf("--continue %s resumed %s", ref, text.String())
		}
		c.send(`{"type":"shutdown"}`)
		c.waitExit(15 * time.Second)
	}
}

// --continue with an id no session has fails before ready: the bridge
// must never be handed another thread's conversation.
func TestSynapsBridgeContinueUnknownFails(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	script := writeScript(t, bridgeScript)
	c, _ := startBridgeChild(t, home, script, "rpc", "--provider", "faux")
	talk(t, c, "an existing thread")
	c, stderr := startBridgeChild(t, home, script, "rpc", "--continue", "0000dead-beef", "--provider", "faux")
	if code := c.waitExit(15 * time.Second); code == 0 || !strings.Contains(stderr.String(), `no session with the id, name or id prefix "0000dead-beef"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	select {
	case f, ok := <-c.frames:
		if ok {
			t.Fatalf("a frame after a failed start: %v", f)
		}
	default:
	}
}

func TestSynapsRPCArgs(t *testing.T) {
	o, ref, err := parseSynapsRPCArgs([]string{"--continue", "abc", "--system", "be brief", "--model", "sonnet", "--approval", "yolo"})
	if err != nil || ref != "abc" || o.SystemPrompt != "be brief" || o.Model != "sonnet" || o.Approval != "yolo" || o.Mode != "synaps" {
		t.Fatalf("parsed %+v, ref %q, err %v", o, ref, err)
	}
	if o, ref, err := parseSynapsRPCArgs([]string{"--continue", "--model", "m"}); err != nil || ref != "" || !o.Continue {
		t.Fatalf("a bare --continue: %+v %q %v", o, ref, err)
	}
	file := filepath.Join(t.TempDir(), "system.md")
	if err := os.WriteFile(file, []byte("from the file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, _, err := parseSynapsRPCArgs([]string{"--system=" + file}); err != nil || o.SystemPrompt != "from the file" {
		t.Fatalf("--system FILE: %+v %v", o, err)
	}
	for args, msg := range map[string]string{
		"--profile work":           "cairn has no named configuration profiles",
		"hello":                    `unexpected argument "hello"`,
		"--mode rpc":               "always speaks synaps rpc",
		"--continue a --session b": "names the session already",
		"--system":                 "--system needs a value",
		"--frobnicate":             "unknown flag --frobnicate",
	} {
		if _, _, err := parseSynapsRPCArgs(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", args, err, msg)
		}
	}
}

// A word cairn would not use is an error in every mode, never dropped.
func TestUnusedArgumentsAreErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	empty := ""
	for _, c := range []struct {
		args  []string
		stdin *string // nil: a terminal
		msg   string
	}{
		{[]string{"--mode", "rpc", "hello"}, &empty, `unexpected argument "hello": --mode rpc reads its prompts from stdin`},
		{[]string{"--mode", "synaps", "--continue", "abc"}, &empty, `unexpected argument "abc"`},
		{[]string{"--mode", "acp", "x"}, &empty, "--mode acp reads"},
		{[]string{"--mode", "jsonrpc", "x"}, &empty, "from its socket"},
		{[]string{"--list-models", "gpt", "extra"}, &empty, "--list-models takes one search term"},
		{[]string{"--version", "extra"}, nil, "--help and --version take none"},
		{[]string{"--continue", "abc"}, nil, "use --session ID"},
		{[]string{"fix", "the", "bug"}, nil, "add -p to answer it once"},
	} {
		r := invoke(t, nil, c.stdin, c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, r.code, r.stderr, c.msg)
		}
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
