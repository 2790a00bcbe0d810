package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// TestHotkeysAreGroupedAndAligned lists the keys: one heading per group,
// and at least two spaces between every key and its description.
func TestHotkeysAreGroupedAndAligned(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.command("/hotkeys")
	var text string
	for _, e := range r.m.tr.entries {
		if ti, ok := e.it.(*textItem); ok {
			text = ansi.Strip(ti.text)
		}
	}
	for _, g := range []string{"Application", "Editor", "Transcript", "Lists"} {
		if !strings.Contains(text, "\n"+g+"\n") && !strings.HasPrefix(text, g+"\n") {
			t.Fatalf("no %s heading:\n%s", g, text)
		}
	}
	for _, e := range r.m.keys.Help() {
		i := strings.Index(text, e.Description)
		if i < 0 {
			t.Fatalf("%q is missing", e.Description)
		}
		if before := text[:i]; !strings.HasSuffix(before, "  ") {
			t.Fatalf("the keys run into %q:\n%s", e.Description, text[max(i-40, 0):i+len(e.Description)])
		}
	}
}

// TestPickersOpenOnTheCurrentChoice opens the thinking, mode and model
// pickers: each starts on what is in force, and the modes say what they
// allow.
func TestPickersOpenOnTheCurrentChoice(t *testing.T) {
	models := testModels()
	r := newRig(t, rigOptions{models: models, model: &models[1]})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	if err := r.sess.SetThinkingLevel(core.ThinkingHigh); err != nil {
		t.Fatal(err)
	}
	r.gate.SetMode(approval.ModeAutoEdit)
	selected := func() pickItem { return r.m.picker.all[r.m.picker.shown[r.m.picker.selected]] }

	r.command("/thinking")
	if got := selected().value; got != "high" {
		t.Fatalf("the thinking picker opens on %q", got)
	}
	r.send(key("esc"))
	r.command("/mode")
	if got := selected().value; got != "auto_edit" {
		t.Fatalf("the mode picker opens on %q", got)
	}
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "edits files unasked; asks before commands") {
		t.Fatalf("the modes do not say what they allow:\n%s", s)
	}
	r.send(key("esc"))
	r.command("/model")
	if got := selected().value; got != models[1].Provider+"/"+models[1].ID {
		t.Fatalf("the model picker opens on %q", got)
	}
}
