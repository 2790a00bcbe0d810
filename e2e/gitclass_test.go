package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Issue 38 in the TUI: in auto_edit, the model's write of .git/commondir
// (which makes git take its configuration and hooks from anywhere) waits
// for the person, saying why, and nothing is written when denied.
func TestTUIAsksBeforeGitCommondir(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	if out, err := exec.Command("git", "init", "-q", h.project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	p := h.cairn("git", 100, 30, "--approval", "auto_edit")
	p.waitText("test-model")
	args, _ := json.Marshal(map[string]string{"path": ".git/commondir", "content": "../evil\n"})
	h.llm.queue(
		reply{chunks: []string{"Writing."}, toolCalls: []fakeToolCall{{id: "call_git", name: "write", arguments: string(args)}}},
		textReply("Done.", 4),
	)
	p.typeText("point git elsewhere")
	p.keys("Enter")
	p.waitText(approvalPrompt, ".git/commondir", "pointer")
	p.answerApproval(approvalPrompt, "n")
	p.waitText("Done.")
	if _, err := os.Stat(filepath.Join(h.project, ".git", "commondir")); err == nil {
		t.Error("written though denied")
	}
}
