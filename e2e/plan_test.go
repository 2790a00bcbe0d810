package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIPlanMode presses shift+tab twice to reach plan mode (the footer
// says so); the model's write is refused without a question, its plan is
// shown for the person to accept, "e" accepts it going on in auto_edit,
// and the next prompt's write runs without asking.
func TestTUIPlanMode(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("plan", 100, 30)
	p.waitText("test-model")
	p.keys("BTab")
	p.waitText("auto_edit")
	p.keys("BTab")
	p.waitText("⏸ plan mode")

	h.llm.queue(
		reply{toolCalls: []fakeToolCall{{id: "call_w1", name: "write", arguments: `{"path":"planned.txt","content":"made\n"}`}}},
		reply{toolCalls: []fakeToolCall{{id: "call_p", name: "exit_plan_mode", arguments: `{"plan":"1. Write planned.txt\n2. Check it"}`}}},
		textReply("Plan accepted.", 4),
		reply{toolCalls: []fakeToolCall{{id: "call_w2", name: "write", arguments: `{"path":"planned.txt","content":"made\n"}`}}},
		textReply("Written.", 4),
	)
	p.typeText("plan a file")
	p.keys("Enter")
	screen := p.waitText("[e] accept, edits unasked (auto_edit)", "2. Check it")
	if strings.Contains(screen, "Allow write") {
		t.Fatalf("the write was asked about in plan mode:\n%s", frame(screen))
	}
	if _, err := os.Stat(filepath.Join(h.project, "planned.txt")); err == nil {
		t.Fatalf("the file was written in plan mode:\n%s", frame(screen))
	}
	if !hasToolResult(t, h.llm.waitRequest(t, 1), "call_w1", "plan mode") {
		t.Error("the model was not told the write was refused for plan mode")
	}
	p.answerApproval("[e] accept", "e")
	p.waitText("Plan accepted.")
	screen = p.waitGone("⏸ plan mode")
	if !strings.Contains(screen, "auto_edit") {
		t.Fatalf("the footer does not show auto_edit after the plan:\n%s", frame(screen))
	}

	p.typeText("do it")
	p.keys("Enter")
	screen = p.waitText("Written.")
	if strings.Contains(screen, "[y] once") {
		t.Fatalf("the write was asked about after the plan was accepted in auto_edit:\n%s", frame(screen))
	}
	if b, err := os.ReadFile(filepath.Join(h.project, "planned.txt")); err != nil || string(b) != "made\n" {
		t.Fatalf("planned.txt = %q, %v", b, err)
	}
}
