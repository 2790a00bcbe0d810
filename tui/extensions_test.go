package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestExtensionUI: an extension's status shows at the bottom, its widgets
// above and below the editor, its title in the window's, its text in the
// editor; clearing each removes it.
func TestExtensionUI(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{
		core.StatusChanged{Key: "a", Text: "status one"},
		core.StatusChanged{Key: "b", Text: "status two"},
		core.WidgetChanged{Key: "top", Lines: []string{"widget above"}},
		core.WidgetChanged{Key: "bottom", Lines: []string{"widget below"}, Placement: core.WidgetBelowEditor},
		core.TitleChanged{Title: "my title"},
		core.EditorTextSet{Text: "prefilled"},
	})
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	lines := strings.Split(ansi.Strip(frame), "\n")
	find := func(text string) int {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return i
			}
		}
		return -1
	}
	above, editor, below, status := find("widget above"), find("> prefilled"), find("widget below"), find("status one · status two")
	if above < 0 || editor < 0 || below < 0 || status < 0 || !(above < editor && editor < below && below < status) || status < len(lines)-4 {
		t.Errorf("rows: above %d, editor %d, below %d, status %d:\n%s", above, editor, below, status, ansi.Strip(frame))
	}
	if r.m.windowTitle() != "my title" {
		t.Errorf("title = %q", r.m.windowTitle())
	}
	r.send(eventsMsg{core.StatusChanged{Key: "a"}, core.WidgetChanged{Key: "top"}})
	s := ansi.Strip(r.m.render())
	if strings.Contains(s, "status one") || strings.Contains(s, "widget above") || !strings.Contains(s, "status two") {
		t.Errorf("not cleared:\n%s", s)
	}
}
