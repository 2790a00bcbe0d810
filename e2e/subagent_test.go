package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUISubagentAsksThroughTheParent runs a task call whose child (the
// general-purpose agent) writes a file: the TUI shows the child as a block
// under its call with its current step, the write's approval comes in the
// session's one prompt labelled with the subagent and its task, and once
// allowed the child's answer reaches the parent.
func TestTUISubagentAsksThroughTheParent(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("subagent", 100, 30)
	p.waitText("test-model")
	task, _ := json.Marshal(map[string]string{"description": "write the notes", "prompt": "Write notes.txt saying hi.", "subagent_type": "general-purpose"})
	write, _ := json.Marshal(map[string]string{"path": "notes.txt", "content": "hi\n"})
	h.llm.queue(
		reply{chunks: []string{"Delegating."}, toolCalls: []fakeToolCall{{id: "call_task", name: "task", arguments: string(task)}}},
		reply{toolCalls: []fakeToolCall{{id: "call_write", name: "write", arguments: string(write)}}},
		textReply("Wrote notes.txt.", 4),
		textReply("The subagent wrote the notes.", 4),
	)
	p.typeText("delegate the notes")
	p.keys("Enter")

	screen := p.waitText(approvalPrompt, "subagent general-purpose (write the notes): Allow write")
	for _, want := range []string{"task general-purpose: write the notes", "→ write: notes.txt"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not on screen while the child waits:\n%s", want, frame(screen))
		}
	}
	if _, err := os.Stat(filepath.Join(h.project, "notes.txt")); err == nil {
		t.Fatal("the child wrote before the approval")
	}
	p.answerApproval(approvalPrompt, "y")
	screen = p.waitText("The subagent wrote the notes.")
	if !strings.Contains(screen, "Wrote notes.txt.") {
		t.Errorf("the child's answer is not under its call:\n%s", frame(screen))
	}
	if data, err := os.ReadFile(filepath.Join(h.project, "notes.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("notes.txt = %q, %v", data, err)
	}
	if !hasToolResult(t, h.llm.waitRequest(t, 3), "call_task", "Wrote notes.txt.") {
		t.Error("the child's answer did not reach the parent's model")
	}
}
