package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestThinkingLevelSaysWhyAndSurvivesASwitch asks for xhigh on a model
// that has no such level: the status says what it got and why. Going
// through a model that cannot think and back restores the chosen level.
func TestThinkingLevelSaysWhyAndSurvivesASwitch(t *testing.T) {
	models := testModels()
	sonnet, qwen := models[0], models[3]
	r := newRig(t, rigOptions{models: models, model: &sonnet})
	r.m.setThinking(core.ThinkingXHigh)
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "Thinking: high (claude-sonnet-4-5 has no xhigh; high is its most)") {
		t.Fatalf("xhigh became high without saying why:\n%s", s)
	}
	r.m.setThinking(core.ThinkingMedium)
	r.m.setModel(qwen.Provider + "/" + qwen.ID)
	if got := r.sess.State().Thinking; got != core.ThinkingOff {
		t.Fatalf("thinking on a model without it = %s", got)
	}
	r.m.setModel(sonnet.Provider + "/" + sonnet.ID)
	if got := r.sess.State().Thinking; got != core.ThinkingMedium {
		t.Fatalf("back on a reasoning model, thinking = %s, want medium", got)
	}
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "Thinking: medium") {
		t.Fatalf("the switch does not say thinking is back:\n%s", s)
	}
}
