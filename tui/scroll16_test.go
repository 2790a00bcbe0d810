package tui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestPageUpPageDownDuringStreamFollowsAgain pages up while an answer
// streams, lets it grow by two lines, and pages down: the view is back at
// the very bottom and follows the stream again. While scrolled back, a
// marker names the key that jumps to the bottom.
func TestPageUpPageDownDuringStreamFollowsAgain(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	var para []string
	for i := range 60 {
		para = append(para, "line #"+strconv.Itoa(i))
	}
	streamed := func(n int) *core.AssistantMessage {
		a := answer(text(strings.Join(para[:n], "\n\n")))
		a.Provider = "test"
		return a
	}
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}, core.MessageUpdate{Kind: core.UpdateTextDelta, Message: streamed(40)}})
	_ = r.m.render()
	r.send(key("pgup"))
	screen := ansi.Strip(r.m.render())
	if r.m.tr.follow || !strings.Contains(screen, "ctrl+end jumps to the bottom") {
		t.Fatalf("scrolled back without a marker:\n%s", screen)
	}
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: streamed(41)}})
	_ = r.m.render()
	r.send(key("pgdown"))
	screen = ansi.Strip(r.m.render())
	if !r.m.tr.follow || !strings.Contains(screen, "line #40") {
		t.Fatalf("page down did not return to the bottom:\n%s", screen)
	}
	if strings.Contains(screen, "jumps to the bottom") {
		t.Fatalf("the scrolled-back marker stays at the bottom:\n%s", screen)
	}
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: streamed(43)}})
	if screen = ansi.Strip(r.m.render()); !strings.Contains(screen, "line #42") {
		t.Fatalf("the view does not follow the stream:\n%s", screen)
	}
}
