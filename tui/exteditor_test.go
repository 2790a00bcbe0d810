package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestEditorComponent: an extension's editor takes the editor's place
// without the "closes this panel" line, gets the draft and the typed
// keys (Escape included), keeps ctrl+c cairn's, and what it submits is
// sent as a prompt; once closed cairn's editor is back.
func TestEditorComponent(t *testing.T) {
	r := newRig(t, rigOptions{responses: []faux.Response{{Text: "pong"}}})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.typeText("dr")
	f := &fakeComponent{}
	r.send(eventsMsg{
		core.ComponentShown{ID: "pi/1", Extension: "pi", Editor: true, Handle: f},
		core.ComponentRendered{ID: "pi/1", Lines: []string{"──────", "hello\x1b[7m \x1b[0m", "────── INSERT "}},
	})
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	plain := ansi.Strip(frame)
	if !strings.Contains(plain, "INSERT") || strings.Contains(plain, "closes this panel") {
		t.Errorf("editor not drawn in the editor's place:\n%s", plain)
	}
	r.send(key("h"), key("esc"), tea.KeyPressMsg{Code: tea.KeyHome}, key("enter"))
	r.send(tea.PasteMsg{Content: "p"})
	r.send(key("ctrl+c"))
	f.mu.Lock()
	inputs, dismissed := f.inputs, f.dismissed
	f.mu.Unlock()
	want := []string{"\x1b[200~dr\x1b[201~", "h", "\x1b", "\x1b[H", "\r", "\x1b[200~p\x1b[201~"}
	if strings.Join(inputs, "|") != strings.Join(want, "|") {
		t.Errorf("inputs %q, want %q", inputs, want)
	}
	if dismissed || r.m.ed.Value() != "" {
		t.Errorf("ctrl+c dismissed the editor (%v), or cairn's editor took keys: %q", dismissed, r.m.ed.Value())
	}
	if !strings.Contains(ansi.Strip(r.m.render()), "ctrl+c again to quit") {
		t.Error("ctrl+c is not cairn's while the editor is shown")
	}
	// Another extension's id, or an action of a component that is not
	// an editor, is not acted on.
	r.sendSync(eventsMsg{core.ComponentAction{ID: "pi/2", Action: core.EditorSubmit, Text: "stray"}})
	r.sendSync(eventsMsg{core.ComponentAction{ID: "pi/1", Action: core.EditorSubmit, Text: "ping"}})
	r.waitSettled()
	if got := r.sentText(); got != "ping" {
		t.Errorf("sent %q, want the editor's text", got)
	}
	r.send(eventsMsg{core.ComponentClosed{ID: "pi/1"}})
	r.send(key("x"))
	if r.m.ed.Value() != "x" || strings.Contains(ansi.Strip(r.m.render()), "INSERT") {
		t.Errorf("cairn's editor is not back: %q", r.m.ed.Value())
	}
}

// TestEditorComponentActions: the editor's interrupt stops a run (and
// does nothing when none runs); its exit (ctrl+d in it, empty) quits.
func TestEditorComponentActions(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{core.ComponentShown{ID: "pi/1", Extension: "pi", Editor: true, Handle: &fakeComponent{}}})
	r.m.onEvent(core.ComponentAction{ID: "pi/1", Action: core.EditorInterrupt})
	if r.m.aborting {
		t.Error("interrupt aborted with no run")
	}
	r.m.busy = true
	r.m.onEvent(core.ComponentAction{ID: "pi/1", Action: core.EditorInterrupt})
	if !r.m.aborting {
		t.Error("interrupt did not stop the run")
	}
	r.m.busy = false
	if cmd := r.m.onEvent(core.ComponentAction{ID: "pi/1", Action: core.EditorExit}); cmd == nil || !r.m.quitting {
		t.Error("exit did not quit")
	}
}

// TestEditorComponentApproval: an approval shown while an extension's
// editor is set takes its keys first, as it does from cairn's editor;
// one that appears while the person types in it does not.
func TestEditorComponentApproval(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	f := &fakeComponent{}
	r.send(eventsMsg{core.ComponentShown{ID: "pi/1", Extension: "pi", Editor: true, Handle: f}})
	r.send(key("w"))
	r.send(eventsMsg{core.AgentStart{}, core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: ls?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)}})
	if r.m.approval.focused {
		t.Fatal("the approval took the keyboard from someone typing in the extension's editor")
	}
	r.send(key("n"))
	if r.m.approval == nil {
		t.Fatal("a key typed in the editor answered the approval")
	}
	now = now.Add(time.Minute)
	r.m.approval = nil
	r.send(eventsMsg{core.Question{ID: "q2", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: ls?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)}})
	if !r.m.approval.focused {
		t.Fatal("an approval shown to someone not typing does not have the keyboard")
	}
	r.send(key("esc"))
	if r.m.approval != nil {
		t.Error("Escape did not answer the approval")
	}
	f.mu.Lock()
	inputs := f.inputs
	f.mu.Unlock()
	if strings.Join(inputs, "|") != "w|n" {
		t.Errorf("the editor got %q, want only the keys typed before the approval had the keyboard", inputs)
	}
}
