package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installExamples puts the three example extensions (docs/examples/
// extensions) in the harness's ~/.cairn/extensions: the Go tool built, the
// Python command and the Node gate linked.
func installExamples(t *testing.T, h *harness) {
	t.Helper()
	for _, prog := range []string{"python3", "node"} {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed in CI", prog)
			}
			t.Skipf("%s is not installed", prog)
		}
	}
	examples, err := filepath.Abs("../docs/examples/extensions")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(h.home, ".cairn", "extensions")
	if err := os.MkdirAll(filepath.Join(dir, "wordcount"), 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command(goTool(), "build", "-o", filepath.Join(dir, "wordcount", "wordcount"), ".")
	build.Dir = filepath.Join(examples, "wordcount")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build wordcount: %v\n%s", err, out)
	}
	for name, data := range map[string]string{"wordcount/extension.json": `{"command":"./wordcount"}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"greet.py", "guard.mjs"} {
		if err := os.Symlink(filepath.Join(examples, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTUIExtensions drives the example extensions in the TUI: /greet's
// select (a picker) and confirm ([y]/[n]) and its status line in the
// footer; the Go tool's result; the Node gate's select blocking rm -rf.
func TestTUIExtensions(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	installExamples(t, h)
	if err := os.Mkdir(filepath.Join(h.project, "victim"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := h.cairn("ext", 100, 30, "--approval", "yolo")
	p.waitText("test-model")

	t.Log("step 1: /greet asks with a picker and a yes/no question, then sets its status")
	p.typeText("/greet ann")
	p.keys("Enter")
	p.waitText("Pick a greeting", "Good morning", "Ahoy")
	p.typeText("Ahoy")
	p.keys("Enter")
	p.waitText("Send it?", "Ahoy, ann!", "[y]")
	p.answerApproval("Send it?", "y")
	screen := p.waitText("greeted ann with Ahoy")
	if !strings.Contains(lastRows(screen, 4), "greeted ann with Ahoy") {
		t.Errorf("the status is not at the bottom:\n%s", frame(screen))
	}

	t.Log("step 2: the model calls the Go tool")
	h.llm.queue(
		reply{toolCalls: []fakeToolCall{{id: "call_wc", name: "word_count", arguments: `{"text":"one two three"}`}}},
		textReply("Counted.", 8),
	)
	p.typeText("count")
	p.keys("Enter")
	p.waitText("3 words, 1 lines", "Counted.")

	t.Log("step 3: the Node gate asks before rm -rf, and Block blocks it")
	h.llm.queue(
		reply{toolCalls: []fakeToolCall{{id: "call_rm", name: "bash", arguments: `{"command":"rm -rf victim"}`}}},
		textReply("Not removed.", 8),
	)
	p.typeText("clean up")
	p.keys("Enter")
	p.waitText("Allow dangerous command?", "Block")
	p.typeText("Block")
	p.keys("Enter")
	p.waitText("Blocked by user", "Not removed.")
	if _, err := os.Stat(filepath.Join(h.project, "victim")); err != nil {
		t.Errorf("rm ran: %v", err)
	}
}
