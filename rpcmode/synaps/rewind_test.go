//go:build unix

package synaps

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestRewindCommand: `rm -rf src` through bash; then, while the next
// prompt runs a command, {"type":"rewind","steps":2} stops it (its agent_end and
// cancelled response come first), brings src back and says what it
// restored; get_state reports the rewind; a redo removes src again; bad
// arguments are refused with error{id}.
func TestRewindCommand(t *testing.T) {
	cwd := t.TempDir()
	src := filepath.Join(cwd, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fp := faux.New(faux.Options{},
		faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: []byte(`{"command":"rm -rf src"}`)}}},
		faux.Response{Text: "Removed."})
	r := newRig(t, rigConfig{faux: fp, cwd: cwd, mode: approval.ModeYolo, checkpoints: true})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p1", "message": "delete src"})
	if got := r.until(responseTo("prompt", "p1")); got[len(got)-1]["ok"] != true {
		t.Fatalf("prompt: %s", types(got))
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}
	r.send(map[string]any{"type": "get_state", "id": "s1"})
	if f := r.next(); fmt.Sprint(f["rewind"]) != "map[can_redo:false enabled:true points:1]" {
		t.Errorf("get_state: %v", f)
	}

	for _, c := range []struct {
		cmd  map[string]any
		want string
	}{
		{map[string]any{"type": "rewind", "id": "b1", "step": 1}, "rewind takes steps, restore, redo and preview; unknown field step"},
		{map[string]any{"type": "rewind", "id": "b2", "restore": "files"}, `field "restore" must be "code", "conversation" or "both", not "files"`},
		{map[string]any{"type": "rewind", "steps": 1}, `command "rewind" needs field "id"`},
	} {
		r.send(c.cmd)
		if f := r.next(); f.str("type") != "error" || f["id"] != c.cmd["id"] || !strings.Contains(f.str("message"), c.want) {
			t.Errorf("%v: %v", c.cmd, f)
		}
	}
	r.send(map[string]any{"type": "rewind", "id": "b3", "steps": 3})
	if f := r.next(); !responseTo("rewind", "b3")(f) || f["ok"] != false || f.str("error") != "cannot go 3 prompts back: this branch has 1" {
		t.Errorf("three steps back: %v", f)
	}
	r.send(map[string]any{"type": "rewind", "id": "pv", "preview": true})
	if f := r.next(); !responseTo("rewind", "pv")(f) || f["preview"] != true ||
		fmt.Sprint(f["changes"]) != "[map[action:create path:src] map[action:create path:src/main.go]]" {
		t.Errorf("preview: %v", f)
	}

	// A prompt whose command would run for a minute: the rewind stops it.
	fp.Push(faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "c2", Name: "bash", Arguments: []byte(`{"command":"sleep 60"}`)}}},
		faux.Response{Text: "never asked"})
	r.send(map[string]any{"type": "prompt", "id": "p2", "message": "wait"})
	r.until(func(f frame) bool { return f.event().str("type") == "toolcall_input" })
	r.send(map[string]any{"type": "rewind", "id": "rw", "steps": 2})
	got := r.until(responseTo("rewind", "rw"))
	n := len(got)
	if n < 3 || got[n-3].str("type") != "agent_end" || !responseTo("prompt", "p2")(got[n-2]) || got[n-2]["cancelled"] != true {
		t.Fatalf("frames: %s", types(got))
	}
	rw := got[n-1]
	if rw["ok"] != true || rw.str("restored") != "both" || rw.str("text") != "delete src" || rw.str("undo_checkpoint") == "" ||
		fmt.Sprint(rw["files"]) != "[src src/main.go]" || fmt.Sprint(rw["not_restored"]) != "[]" ||
		fmt.Sprint(rw["rewind"]) != "map[can_redo:true enabled:true points:0]" {
		t.Fatalf("rewind: %v", rw)
	}
	if b, err := os.ReadFile(filepath.Join(src, "main.go")); err != nil || string(b) != "package main\n" {
		t.Fatalf("src/main.go after rewind: %q, %v", b, err)
	}
	r.send(map[string]any{"type": "get_state", "id": "s2"})
	if f := r.next(); fmt.Sprint(f["message_count"]) != "0" {
		t.Errorf("get_state after the rewind: %v", f)
	}

	r.send(map[string]any{"type": "rewind", "id": "redo", "redo": true})
	if f := r.next(); !responseTo("rewind", "redo")(f) || f["ok"] != true {
		t.Fatalf("redo: %v", f)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
}

// A compaction in flight is stopped by a rewind: its cancelled response
// comes before the rewind's. The summary would take minutes to stream, so
// only the rewind can end it.
func TestRewindStopsACompaction(t *testing.T) {
	fp := faux.New(faux.Options{ChunkSize: 1, TokensPerSecond: 400},
		faux.Response{Text: strings.Repeat("a long answer ", 50)},
		faux.Response{Text: "SUMMARY " + strings.Repeat("words ", 100_000)})
	r := newRig(t, rigConfig{faux: fp, compaction: agentCompaction()})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p", "message": "hi"})
	r.until(responseTo("prompt", "p"))
	r.send(map[string]any{"type": "compact", "id": "c"})
	if f := r.next(); !responseTo("compact.disclosure", "c")(f) {
		t.Fatalf("first compact frame: %v", f)
	}
	r.send(map[string]any{"type": "rewind", "id": "rw", "restore": "conversation"})
	got := r.until(responseTo("rewind", "rw"))
	n := len(got)
	if n < 2 || !responseTo("compact", "c")(got[n-2]) || got[n-2]["cancelled"] != true {
		t.Fatalf("frames: %s %v", types(got), got)
	}
	if rw := got[n-1]; rw["ok"] != true || rw.str("restored") != "conversation" || rw.str("text") != "hi" {
		t.Fatalf("rewind: %v", rw)
	}
	if n := len(r.sess.Messages()); n != 0 {
		t.Errorf("%d messages after the rewind", n)
	}
}
