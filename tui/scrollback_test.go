package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestLastExchangeGoesToScrollback: what is printed to the normal screen
// on leaving is the last exchange, drawn as on screen: the person's last
// message and everything after it, not the earlier ones.
func TestLastExchangeGoesToScrollback(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := r.m.lastExchange(); got != "" {
		t.Errorf("before any message: %q", got)
	}
	r.m.showConversation([]core.Message{
		&core.UserMessage{Content: []core.Content{text("first question")}},
		answer(text("first answer")),
		&core.UserMessage{Content: []core.Content{text("second question")}},
		answer(text("The **second** answer.")),
	})
	got := ansi.Strip(r.m.lastExchange())
	if !strings.Contains(got, "second question") || !strings.Contains(got, "The second answer.") || strings.Contains(got, "first") {
		t.Errorf("the last exchange is:\n%s", got)
	}
}

// TestWholeConversationGoesToScrollbackWhenSet: with the
// scrollbackOnQuit setting "all", every exchange is left, in order.
func TestWholeConversationGoesToScrollbackWhenSet(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.m.showConversation([]core.Message{
		&core.UserMessage{Content: []core.Content{text("first question")}},
		answer(text("first answer")),
		&core.UserMessage{Content: []core.Content{text("second question")}},
		answer(text("second answer")),
	})
	if got := ansi.Strip(r.m.quitScrollback()); strings.Contains(got, "first") {
		t.Errorf("by default only the last exchange is left:\n%s", got)
	}
	r.m.opts.ScrollbackAll = true
	got := ansi.Strip(r.m.quitScrollback())
	if i, j := strings.Index(got, "first question"), strings.Index(got, "second answer"); i < 0 || j < i {
		t.Errorf("the whole conversation is not left in order:\n%s", got)
	}
}

// TestMouseCaptureIsASetting: with NoMouse the TUI leaves the mouse to the
// terminal (selection and copying without shift).
func TestMouseCaptureIsASetting(t *testing.T) {
	r := newRig(t, rigOptions{})
	if v := r.m.drawView(); v.MouseMode != tea.MouseModeCellMotion {
		t.Errorf("by default the mouse mode is %v, want cell motion", v.MouseMode)
	}
	r.m.opts.NoMouse = true
	if v := r.m.drawView(); v.MouseMode != tea.MouseModeNone {
		t.Errorf("with NoMouse the mouse mode is %v, want none", v.MouseMode)
	}
}
