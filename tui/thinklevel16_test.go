package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

// TestSwitchingToAThinkingModelRestoresItsLevel: a session started on a
// model that cannot think switches with /model to one that can: it thinks
// at the default level, as if cairn had started with it, and the status
// and footer say so. Each thinking model keeps the level last used with
// it; one not used before gets the default.
func TestSwitchingToAThinkingModelRestoresItsLevel(t *testing.T) {
	models := testModels()
	sonnet, codex, qwen := models[0], models[1], models[3]
	r := newRig(t, rigOptions{models: models, model: &qwen})
	r.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	step := func(to core.Model, want core.ThinkingLevel, why string) {
		t.Helper()
		r.m.setModel(to.Provider + "/" + to.ID)
		if got := r.sess.State().Thinking; got != want {
			t.Fatalf("on %s thinking is %s, want %s", to.ID, got, want)
		}
		s := ansi.Strip(r.m.render())
		if !strings.Contains(s, "Thinking: "+string(want)+" ("+why+")") {
			t.Fatalf("the switch to %s does not say thinking is %s (%s):\n%s", to.ID, want, why, s)
		}
		if !strings.Contains(s, to.ID+" • "+string(want)) {
			t.Fatalf("the footer does not show %s thinking at %s:\n%s", to.ID, want, s)
		}
	}
	step(sonnet, core.DefaultThinking, "its default")
	r.m.setThinking(core.ThinkingHigh)
	step(codex, core.DefaultThinking, "its default")
	r.m.setModel(qwen.Provider + "/" + qwen.ID)
	step(sonnet, core.ThinkingHigh, "last used with it")
}
