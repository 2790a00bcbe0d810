//go:build unix

package aionrs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestRewindCommand: `rm -rf src` through bash; then, while the next
// message waits for a tool_request, {"type":"rewind","steps":2} stops that
// message (its stream_end comes first), brings src back, says what it
// restored and reports the rewind state, as capabilities.rewind does; a
// redo removes src again. Bad arguments are refused with a protocol_error.
func TestRewindCommand(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "bash", `{"command":"rm -rf src"}`),
		faux.Response{Text: "removed"},
		toolCall("t2", "write", `{"path":"b.txt","content":"x"}`),
		faux.Response{Text: "never asked"})
	r := newRig(t, rigConfig{faux: fp, checkpoints: true})
	src := filepath.Join(r.dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := r.ready(); fmt.Sprint(f.get("capabilities.rewind.points")) != "0" || f.get("capabilities.rewind.can_redo") != false {
		t.Fatalf("ready: %v", f)
	}
	r.send(`{"type":"message","msg_id":"m1","input":"delete src"}`)
	r.expect("stream_start")
	r.until("tool_request")
	r.send(`{"type":"tool_approve","call_id":"t1"}`)
	r.until("stream_end")
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}

	for _, c := range []struct{ cmd, want string }{
		{`{"type":"rewind","step":1}`, "Invalid rewind command: rewind takes steps, restore, redo and preview; unknown field step"},
		{`{"type":"rewind","restore":"files"}`, `Invalid rewind command: field "restore" must be "code", "conversation" or "both", not "files"`},
		{`{"type":"rewind","steps":5}`, "Rewind failed: cannot go 5 prompts back: this branch has 1"},
	} {
		r.send(c.cmd)
		if f := r.expect("error"); f.str("error.code") != "protocol_error" || f.str("error.message") != c.want {
			t.Errorf("%s: %v", c.cmd, f)
		}
	}
	r.send(`{"type":"rewind","preview":true}`)
	if f := r.expect("rewind_preview"); f.str("text") != "delete src" ||
		fmt.Sprint(f["changes"]) != "[map[action:create path:src] map[action:create path:src/main.go]]" {
		t.Errorf("preview: %v", f)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatal("the preview changed the files")
	}

	r.send(`{"type":"message","msg_id":"m2","input":"write b.txt"}`)
	r.until("tool_request")
	r.send(`{"type":"rewind","steps":2}`)
	fs := r.until("rewind_result")
	if got := types(fs); !strings.HasSuffix(got, "stream_end,rewind_result") || countType(fs, "error") != 0 {
		t.Fatalf("frames after the rewind: %s (%v)", got, fs)
	}
	res := fs[len(fs)-1]
	if res.str("restored") != "both" || res.str("text") != "delete src" || res.str("undo_checkpoint") == "" ||
		fmt.Sprint(res["files"]) != "[src src/main.go]" || len(res["not_restored"].([]any)) != 0 ||
		fmt.Sprint(res.get("rewind.points")) != "0" || res.get("rewind.can_redo") != true {
		t.Fatalf("rewind_result: %v", res)
	}
	if b, err := os.ReadFile(filepath.Join(src, "main.go")); err != nil || string(b) != "package main\n" {
		t.Fatalf("src/main.go after rewind: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "b.txt")); !os.IsNotExist(err) {
		t.Fatalf("the stopped message wrote b.txt: %v", err)
	}
	r.send(`{"type":"set_mode","mode":"default"}`)
	if f := r.expect("config_changed"); f.get("capabilities.rewind.can_redo") != true {
		t.Errorf("config_changed after the rewind: %v", f)
	}

	r.send(`{"type":"rewind","redo":true}`)
	if f := r.expect("rewind_result"); f.str("restored") != "both" {
		t.Fatalf("redo: %v", f)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
	r.noMore()
}

// Without checkpoints, capabilities has no rewind and a rewind of the
// files says why it cannot be done; the conversation alone can go back.
func TestRewindWithoutCheckpoints(t *testing.T) {
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}, faux.Response{Text: "hi"})})
	if f := r.ready(); f.get("capabilities.rewind") != nil {
		t.Fatalf("ready: %v", f)
	}
	r.send(`{"type":"message","msg_id":"m1","input":"hello"}`)
	r.until("stream_end")
	r.send(`{"type":"rewind"}`)
	if f := r.expect("error"); !strings.Contains(f.str("error.message"), "checkpoints are off") {
		t.Errorf("rewind without checkpoints: %v", f)
	}
	r.send(`{"type":"rewind","restore":"conversation"}`)
	if f := r.expect("rewind_result"); f.str("restored") != "conversation" || f.str("text") != "hello" || f.get("rewind") != nil {
		t.Errorf("conversation rewind: %v", f)
	}
	if n := len(r.sess.Messages()); n != 0 {
		t.Errorf("%d messages after the rewind", n)
	}
	r.noMore()
}
