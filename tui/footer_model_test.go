package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestFooterNamesTheModelThatAnswered checks that a router's choice shows
// beside the model asked for.
func TestFooterNamesTheModelThatAnswered(t *testing.T) {
	r := newRig(t, rigOptions{})
	a := answer(text("hi"))
	a.ResponseModel = "routed-model-2"
	r.send(eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: a}})
	if footer := ansi.Strip(r.m.footerView(120)); !strings.Contains(footer, "faux-1 → routed-model-2") {
		t.Errorf("footer does not name the answering model:\n%s", footer)
	}
	a2 := answer(text("again"))
	r.send(eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: a2}})
	if footer := ansi.Strip(r.m.footerView(120)); strings.Contains(footer, "→") {
		t.Errorf("footer still names a model after an answer without one:\n%s", footer)
	}
}
