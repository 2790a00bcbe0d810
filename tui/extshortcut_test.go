package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// An extension's shortcut (pi's registerShortcut) runs its handler when
// the key is pressed; a key cairn uses is refused, with pi's words.
func TestExtensionShortcutRunsItsHandler(t *testing.T) {
	r := newRig(t, rigOptions{})
	ran := make(chan string, 4)
	fail := errors.New("boom")
	r.m.opts.ExtensionShortcuts = func() []extension.Shortcut {
		return []extension.Shortcut{{Key: "ctrl+alt+p", Extension: "pi:plan-mode"}, {Key: "ctrl+c", Extension: "pi:greedy"}, {Key: "ctrl+alt+x", Extension: "pi:broken"}}
	}
	r.m.opts.RunExtensionShortcut = func(_ context.Context, key string) error {
		ran <- key
		if key == "ctrl+alt+x" {
			return fail
		}
		return nil
	}
	r.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl | tea.ModAlt})
	select {
	case k := <-ran:
		if k != "ctrl+alt+p" {
			t.Fatalf("ran %q", k)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ctrl+alt+p did not run the extension's handler")
	}
	r.send(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl | tea.ModAlt})
	<-ran
	if !strings.Contains(r.m.View().Content, "ctrl+alt+x: boom") {
		t.Errorf("a failed handler is not told:\n%s", r.m.View().Content)
	}
	r.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	select {
	case k := <-ran:
		t.Fatalf("ctrl+c, cairn's key, ran the extension's %q", k)
	default:
	}
	r.typeText("p")
	if r.m.ed.Value() != "p" {
		t.Errorf("typing p: editor holds %q", r.m.ed.Value())
	}

	r.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	r.typeText("/hotkeys")
	r.send(key("enter"))
	if view := r.m.View().Content; !strings.Contains(view, "Extensions") || !strings.Contains(view, "runs pi:plan-mode's shortcut") || strings.Contains(view, "pi:greedy") {
		t.Errorf("/hotkeys does not list the bound extension shortcuts alone:\n%s", view)
	}

	bound, refused := ExtensionShortcuts(keymap.Defaults(), r.m.opts.ExtensionShortcuts())
	if _, ok := bound["ctrl+alt+p"]; !ok || len(bound) != 2 {
		t.Errorf("bound %v", bound)
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "Extension shortcut 'ctrl+c' from pi:greedy conflicts with cairn's key for") {
		t.Errorf("refused %q", refused)
	}
}
