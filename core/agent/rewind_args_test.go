package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestDecodeRewindArgs: the request every adapter reads, its defaults and
// its refusals, worded the same everywhere.
func TestDecodeRewindArgs(t *testing.T) {
	cases := []struct {
		in   string
		want RewindArgs
		err  string
	}{
		{in: `{"type":"rewind","id":"1"}`, want: RewindArgs{}},
		{in: `{"type":"rewind","steps":3,"restore":"code"}`, want: RewindArgs{Steps: 3, Restore: RestoreCode}},
		{in: `{"type":"rewind","steps":null,"restore":null,"redo":true}`, want: RewindArgs{Redo: true}},
		{in: `{"type":"rewind","preview":true,"restore":"conversation"}`, want: RewindArgs{Preview: true, Restore: RestoreConversation}},
		{in: `{"type":"rewind","step":1,"zz":2}`, err: "rewind takes steps, restore, redo and preview; unknown field step, zz"},
		{in: `{"type":"rewind","steps":0}`, err: `field "steps" must be a whole number of at least 1, not 0`},
		{in: `{"type":"rewind","steps":1.5}`, err: `field "steps" must be a whole number of at least 1, not 1.5`},
		{in: `{"type":"rewind","steps":"2"}`, err: `field "steps" must be a whole number of at least 1, not "2"`},
		{in: `{"type":"rewind","restore":"files"}`, err: `field "restore" must be "code", "conversation" or "both", not "files"`},
		{in: `{"type":"rewind","restore":""}`, err: `field "restore" must be "code", "conversation" or "both", not ""`},
		{in: `{"type":"rewind","redo":"yes"}`, err: `field "redo" must be true or false, not "yes"`},
		{in: `{"type":"rewind","redo":true,"preview":true}`, err: "preview and redo cannot be combined"},
		{in: `{"type":"rewind","restore":"` + strings.Repeat("é", 40) + `"}`, err: `not "` + strings.Repeat("é", 20) + `...`},
		{in: `{"` + strings.Repeat("k", 5000) + `":1}`, err: "unknown field " + strings.Repeat("k", 40) + "..."},
		{in: `[1]`, err: "a rewind request must be a JSON object"},
		{in: `null`, err: "a rewind request must be a JSON object"},
	}
	for _, c := range cases {
		got, err := DecodeRewindArgs([]byte(c.in), "type", "id")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// FuzzDecodeRewindArgs: any input is either refused or gives arguments
// the rewind accepts (steps 0 or at least 1, a known restore, never redo
// with preview); it never panics.
func FuzzDecodeRewindArgs(f *testing.F) {
	for _, s := range []string{`{"steps":2,"restore":"code"}`, `{"redo":true}`, `{"preview":true,"type":"x"}`, `{"steps":-1}`, `{}`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeRewindArgs(b, "type")
		if err != nil {
			if a != (RewindArgs{}) {
				t.Fatalf("refused with arguments %+v", a)
			}
			return
		}
		switch a.Restore {
		case "", RestoreBoth, RestoreCode, RestoreConversation:
		default:
			t.Fatalf("restore %q accepted", a.Restore)
		}
		if a.Steps < 0 || (a.Redo && a.Preview) {
			t.Fatalf("accepted %+v", a)
		}
	})
}

// TestAnswerRewindReportsWhatWasRestored: a tool edits a file; a preview
// changes nothing and names the file; the rewind restores it and reports
// the file, the prompt, the undo checkpoint and the state after it.
func TestAnswerRewindReportsWhatWasRestored(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a.txt")
	if err := os.WriteFile(file, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := checkpoint.Open(checkpoint.Options{Project: root, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	edit := &fakeTool{name: "edit", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		return core.TextResult("edited"), os.WriteFile(file, []byte("after\n"), 0o644)
	}}
	f := newFixture(t, Config{Tools: []core.Tool{edit}, Checkpoints: store},
		faux.Response{Content: []core.Content{toolCall("c1", "edit", `{}`)}},
		faux.Response{Text: "done"})
	if err := f.s.Prompt("edit a.txt", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	ctx := context.Background()
	pv, err := f.s.AnswerRewind(ctx, RewindArgs{Preview: true}, nil)
	if err != nil || pv.Report != nil || pv.Preview == nil || len(pv.Preview.Changes) != 1 || pv.Preview.Changes[0].Path != "a.txt" ||
		pv.Preview.Text != "edit a.txt" {
		t.Fatalf("preview: %+v, %v", pv.Preview, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "after\n" {
		t.Fatalf("the preview changed the file: %q", b)
	}
	ans, err := f.s.AnswerRewind(ctx, RewindArgs{Restore: RestoreCode}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := ans.Report
	if r == nil || r.Restored != RestoreCode || r.Text != "edit a.txt" || r.UndoCheckpoint == "" ||
		len(r.Files) != 1 || r.Files[0] != "a.txt" || len(r.NotRestored) != 0 || r.Outside == nil ||
		r.State == nil || !r.State.CanRedo || r.State.Points != 1 {
		t.Fatalf("report: %+v", r)
	}
	if b, _ := os.ReadFile(file); string(b) != "before\n" {
		t.Fatalf("a.txt after rewind: %q", b)
	}
	if _, err := f.s.AnswerRewind(ctx, RewindArgs{Steps: 2}, nil); err == nil || !strings.Contains(err.Error(), "this branch has 1") {
		t.Fatalf("two steps back: %v", err)
	}
}
