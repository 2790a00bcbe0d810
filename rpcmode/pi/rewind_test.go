//go:build unix

package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestRewindThroughRPC: `rm -rf src` through the bash tool, then
// {"type":"rewind"} brings src back and says what it restored; get_state
// reports the rewind; {"redo":true} removes src again; unknown fields and
// bad values are refused.
func TestRewindThroughRPC(t *testing.T) {
	cwd := t.TempDir()
	src := filepath.Join(cwd, "src")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(src, 0o755))
	must(os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644))
	store, err := checkpoint.Open(checkpoint.Options{Project: cwd, Dir: t.TempDir()})
	must(err)
	fp := faux.New(faux.Options{}, bashCall("c1", "rm -rf src"), faux.Response{Text: "Removed."})
	r := newRig(t, rigConfig{faux: fp, cwd: cwd, checkpoints: store})

	r.send(map[string]any{"id": "p", "type": "prompt", "message": "delete src"})
	r.wait(map[string]any{"type": "agent_settled"})
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}
	r.send(map[string]any{"id": "s1", "type": "get_state"})
	if s := r.response("s1"); s.get("data.rewind.enabled") != true || fmt.Sprint(s.get("data.rewind.points")) != "1" || s.get("data.rewind.canRedo") != false {
		t.Errorf("get_state rewind: %s", s.text)
	}

	r.send(map[string]any{"id": "bad1", "type": "rewind", "step": 1})
	expectError(t, r.response("bad1"), "rewind takes steps, restore, redo and preview; unknown field step")
	r.send(map[string]any{"id": "bad2", "type": "rewind", "restore": "files"})
	expectError(t, r.response("bad2"), `field "restore" must be "code", "conversation" or "both", not "files"`)
	r.send(map[string]any{"id": "bad3", "type": "rewind", "steps": 2})
	expectError(t, r.response("bad3"), "cannot go 2 prompts back: this branch has 1")

	r.send(map[string]any{"id": "pv", "type": "rewind", "preview": true})
	if pv := r.response("pv"); pv.str("data.changes.0.path") != "src" || pv.str("data.changes.0.action") != "create" || pv.str("data.changes.1.path") != "src/main.go" {
		t.Errorf("preview: %s", pv.text)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatal("the preview changed the files")
	}

	r.send(map[string]any{"id": "rw", "type": "rewind"})
	rw := r.response("rw")
	if rw.get("success") != true || rw.str("data.restored") != "both" || rw.str("data.text") != "delete src" ||
		rw.str("data.files.0") != "src" || rw.str("data.files.1") != "src/main.go" || len(rw.get("data.notRestored").([]any)) != 0 {
		t.Fatalf("rewind: %s", rw.text)
	}
	if b, err := os.ReadFile(filepath.Join(src, "main.go")); err != nil || string(b) != "package main\n" {
		t.Fatalf("src/main.go after rewind: %q, %v", b, err)
	}
	r.send(map[string]any{"id": "s2", "type": "get_state"})
	if s := r.response("s2"); fmt.Sprint(s.get("data.messageCount")) != "0" || s.get("data.rewind.canRedo") != true {
		t.Errorf("get_state after rewind: %s", s.text)
	}

	r.send(map[string]any{"id": "redo", "type": "rewind", "redo": true})
	if redo := r.response("redo"); redo.get("success") != true {
		t.Fatalf("redo: %s", redo.text)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
	r.send(map[string]any{"id": "s3", "type": "get_state"})
	if s := r.response("s3"); fmt.Sprint(s.get("data.messageCount")) != "4" {
		t.Errorf("get_state after redo: %s", s.text)
	}
}
