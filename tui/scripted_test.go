package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// TestScriptedTagMarksFauxAnswersOnly checks that a finished answer from
// the faux provider says it was scripted, and that a model's answer, a faux
// answer still streaming and a faux answer that calls a tool do not.
func TestScriptedTagMarksFauxAnswersOnly(t *testing.T) {
	withProvider := func(a *core.AssistantMessage, provider string) *core.AssistantMessage {
		a.Provider = provider
		return a
	}
	cases := []struct {
		name string
		msgs []tea.Msg
		want bool
	}{
		{"faux answer", []tea.Msg{
			eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: answer(text("Scripted hello."))}},
		}, true},
		{"model answer", []tea.Msg{
			eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: withProvider(answer(text("Real hello.")), "anthropic")}},
		}, false},
		{"faux answer streaming", []tea.Msg{
			eventsMsg{core.MessageStart{Message: answer()}, core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "Scr", Message: answer(text("Scr"))}},
		}, false},
		{"faux tool call", []tea.Msg{
			eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: answer(text("Reading."), call("c1", "read", map[string]string{"path": "a.go"}))}},
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
			r.send(c.msgs...)
			if got := strings.Contains(r.m.render(), scriptedTag); got != c.want {
				t.Fatalf("tag shown = %v, want %v:\n%s", got, c.want, r.m.render())
			}
		})
	}
}
