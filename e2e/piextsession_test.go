package e2e

import (
	"strings"
	"testing"
)

// TestTUIPiExtensionSession runs two of pi 0.87.1's examples in the TUI
// through the pi extension host: bookmark.ts's /bookmark labels the last
// answer, which /tree shows; handoff.ts's /handoff has the model write a
// prompt for a new session, lets the person edit it, starts the new
// session (pi's ctx.newSession) and leaves the prompt in its editor.
func TestTUIPiExtensionSession(t *testing.T) {
	needNode(t)
	h := newHarness(t, tmuxTerminal)
	h.installPiExamples(t, "bookmark.ts", "handoff.ts")
	p := h.cairn("session", 100, 30)
	p.waitText("test-model")
	h.llm.queue(textReply("Hello there.", 8))
	p.typeText("hi")
	p.keys("Enter")
	p.waitText("Hello there.")

	t.Log("step 1: /bookmark labels the answer, and /tree shows the label")
	p.typeText("/bookmark greeting")
	p.keys("Enter")
	p.waitText("Bookmarked as: greeting")
	p.typeText("/tree")
	p.keys("Enter")
	p.waitText("[greeting] assistant: Hello there.")
	p.keys("Escape")
	p.waitFor("the tree closed", func(s string) bool { return !strings.Contains(s, "Session tree") })

	t.Log("step 2: /handoff writes a prompt, which the person accepts, into a new session")
	h.llm.queue(textReply("Say hello again, in French.", 8))
	p.typeText("/handoff greet in French")
	p.keys("Enter")
	p.waitText("Edit handoff prompt", "Say hello again, in French.")
	p.keys("Enter")
	screen := p.waitText("Handoff ready. Submit when ready.")
	if strings.Contains(screen, "Hello there.") {
		t.Errorf("the old conversation is still shown:\n%s", frame(screen))
	}
	if !strings.Contains(lastRows(screen, 6), "Say hello again, in French.") {
		t.Errorf("the prompt is not in the editor:\n%s", frame(screen))
	}
}
