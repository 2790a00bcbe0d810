package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRewindRestoresWhatBashDeleted: the model runs `rm -rf src` through
// bash; esc esc on the empty editor opens the rewind picker, which shows
// what will change, and restoring code and conversation brings src back
// byte for byte, with the prompt back in the editor.
func TestRewindRestoresWhatBashDeleted(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	src := filepath.Join(h.project, "src")
	files := map[string]string{"main.go": "package main\n\nfunc main() {}\n", "util/notes.txt": "keep me\n"}
	for name, text := range files {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := h.cairn("rewind", 100, 30)
	p.waitText("test-model")
	h.llm.queue(
		reply{chunks: []string{"Deleting."}, toolCalls: []fakeToolCall{{id: "call_rm", name: "bash", arguments: `{"command":"rm -rf src"}`}}},
		textReply("Removed src.", 4),
	)
	p.typeText("delete src")
	p.keys("Enter")
	p.answerApproval(approvalPrompt, "y")
	p.waitText("Removed src.")
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}

	t.Log("esc esc on the empty editor opens /rewind")
	p.keys("Escape")
	p.keys("Escape")
	p.waitText("Rewind to before which prompt?", "delete src")
	p.keys("Enter")
	p.waitText("Rewinding the code changes 4 path(s)", "add    src/main.go", "Restore code and conversation")
	p.keys("Enter")
	p.waitText("Rewound code and conversation", "4 path(s)", "> delete src")
	for name, text := range files {
		got, err := os.ReadFile(filepath.Join(src, name))
		if err != nil || string(got) != text {
			t.Fatalf("%s after the rewind: %q, %v", name, got, err)
		}
	}
}
