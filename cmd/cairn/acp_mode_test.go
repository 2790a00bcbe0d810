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
	vars := map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": script}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb strings.Builder
	streams := IOStreams{In: inR, Out: outW, Err: &errb}
	code := make(chan int, 1)
	go func() {
		c := run(context.Background(), []string{"--provider", "faux", "--mode", "acp"}, streams, func(k string) string { return vars[k] })
		outW.Close()
		code <- c
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(id int, method string, params any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	// await reads frames until the response to id; every line must be a
	// JSON-RPC 2.0 object.
	await := func(id int) map[string]any {
		t.Helper()
		timeout := time.After(15 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("stdout ended before response %d; stderr: %s", id, errb.String())
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
					t.Fatalf("stdout line is not a frame: %q", l)
				}
				if m["method"] == nil && m["id"] == float64(id) {
					return m
				}
			case <-timeout:
				t.Fatalf("no response %d within 15s", id)
			}
		}
	}
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
