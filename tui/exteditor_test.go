package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
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
	r.send(key("h"), key("esc"), key("enter"))
	r.send(tea.PasteMsg{Content: "p"})
	r.send(key("ctrl+c"))
	f.mu.Lock()
	inputs, dismissed := f.inputs, f.dismissed
	f.mu.Unlock()
	want := []string{"\x1b[200~dr\x1b[201~", "h", "\x1b", "\r", "\x1b[200~p\x1b[201~"}
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

// TestEditorComponentExit: the editor's exit (ctrl+d in it, empty) quits.
func TestEditorComponentExit(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{core.ComponentShown{ID: "pi/1", Extension: "pi", Editor: true, Handle: &fakeComponent{}}})
	if cmd := r.m.onEvent(core.ComponentAction{ID: "pi/1", Action: core.EditorExit}); cmd == nil || !r.m.quitting {
		t.Error("exit did not quit")
	}
}
