package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestTUIApprovesALongCommand asks, at 80x24, to approve a 400-character
// command whose dangerous part is at its end: the whole command is on the
// screen before the answer (wrapped, not cut with an ellipsis), and the
// command runs once approved.
func TestTUIApprovesALongCommand(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("long", 80, 24)
	p.waitText("test-model")

	var b strings.Builder
	b.WriteString("echo")
	for i := 1; b.Len() < 375; i++ {
		fmt.Fprintf(&b, " part-%03d", i)
	}
	b.WriteString(" && echo the-end-of-it-all")
	cmd := b.String()
	if len(cmd) < 400 {
		t.Fatalf("the command is %d characters, want at least 400", len(cmd))
	}
	args, _ := json.Marshal(map[string]string{"command": cmd})
	h.llm.queue(
		reply{chunks: []string{"Running it."}, toolCalls: []fakeToolCall{{id: "call_long", name: "bash", arguments: string(args)}}},
		textReply("Done.", 4),
	)
	p.typeText("run the long one")
	p.keys("Enter")

	screen := p.waitText(approvalPrompt, "Allow bash")
	if !strings.Contains(squeeze(screen), squeeze("Allow bash: "+cmd+"?")) {
		t.Fatalf("the approval question does not show the whole command:\n%s", frame(screen))
	}
	if !fits(screen, 80, 24) {
		t.Fatalf("the screen does not fit 80x24:\n%s", frame(screen))
	}
	if h.llm.count() != 1 {
		t.Fatalf("the command ran before it was approved:\n%s", frame(screen))
	}
	p.answerApproval(approvalPrompt, "y")
	p.waitText("Done.")
	if !hasToolResult(t, h.llm.waitRequest(t, 1), "call_long", "the-end-of-it-all") {
		t.Error("the approved command's output did not reach the model")
	}
}

// squeeze drops every space and line break, so text wrapped over rows
// compares with the text it came from.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }
