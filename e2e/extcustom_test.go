package e2e

import (
	"strings"
	"testing"
)

// TestTUIExtensionComponent drives pi's question.ts (a ui.custom
// component made of pi-tui's own parts) in the TUI: the model calls its
// tool, the component takes the editor's place and the keyboard, arrows
// and Enter answer it, and the answer is the tool's result (the model is
// sent it); the editor is then back.
func TestTUIExtensionComponent(t *testing.T) {
	needNode(t)
	h := newHarness(t, tmuxTerminal)
	question := piExample(t, "question.ts")
	h.logExtensionsOnFailure(t)
	p := h.cairn("custom", 100, 30, "--approval", "yolo", "-e", question)
	p.waitText("test-model")

	h.llm.queue(
		reply{toolCalls: []fakeToolCall{{id: "call_q", name: "question", arguments: `{"question":"Which colour?","options":[{"label":"Red"},{"label":"Green","description":"like grass"}]}`}}},
		textReply("Green it is.", 8),
	)
	p.typeText("ask me")
	p.keys("Enter")
	screen := p.waitText("Which colour?", "1. Red", "like grass", "ctrl+c closes")
	if strings.Contains(lastRows(screen, 6), "> ask me") {
		t.Errorf("the editor is still shown under the component:\n%s", frame(screen))
	}
	p.keys("Down")
	p.waitText("> 2. Green")
	p.keys("Enter")
	// The tool's own renderer draws its result; the model is sent its text.
	p.waitText("✓ 2. Green", "Green it is.")
	if body := string(h.llm.waitRequest(t, 1).body); !strings.Contains(body, "User selected: 2. Green") {
		t.Errorf("the model was not sent the answer: %.2000s", body)
	}
	p.waitGone("ctrl+c closes")
	p.typeText("next")
	p.waitText("> next")
}
