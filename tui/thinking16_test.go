package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestThinkingShowsItsLatestLine streams thinking: the collapsed line
// follows its newest line; expanded, a blank line separates the thoughts
// from the answer, while it streams and once it is done.
func TestThinkingShowsItsLatestLine(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 30})
	think := "First I read the parser.\nThen I check the lexer."
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()},
		core.MessageUpdate{Kind: core.UpdateThinkingDelta, Message: answer(thinking(think))}})
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "Thinking: Then I check the lexer.") {
		t.Fatalf("the collapsed thinking does not show its latest line:\n%s", s)
	}
	r.send(key("ctrl+t"))
	gap := func(when string) {
		t.Helper()
		lines := strings.Split(ansi.Strip(r.m.render()), "\n")
		for i, l := range lines {
			if strings.Contains(l, "The answer") {
				if strings.TrimSpace(lines[i-1]) != "" || !strings.Contains(lines[i-2], "lexer") {
					t.Fatalf("%s: no blank line between thinking and answer:\n%s", when, strings.Join(lines, "\n"))
				}
				return
			}
		}
		t.Fatalf("%s: no answer on screen", when)
	}
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Index: 1, Message: answer(thinking(think), text("The answer is short."))}})
	gap("streaming")
	final := answer(thinking(think), text("The answer is short."))
	final.Provider = "test"
	r.send(eventsMsg{core.MessageEnd{Message: final}, core.AgentEnd{}, core.Settled{}})
	gap("done")
}
