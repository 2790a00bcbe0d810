package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIPiExtensionChrome runs two of pi 0.87.1's examples in the TUI
// through the pi extension host: custom-footer.ts's /footer replaces
// cairn's footer with its own line (tokens, cost, model), and
// custom-header.ts puts pi's mascot atop the transcript once the session
// starts.
func TestTUIPiExtensionChrome(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is needed in CI")
		}
		t.Skip("node is not installed")
	}
	h := newHarness(t, tmuxTerminal)
	dir := filepath.Join(h.home, ".pi", "agent", "extensions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"custom-footer.ts", "custom-header.ts"} {
		data, err := os.ReadFile(filepath.Join("..", "core", "piext", "testdata", "pi-examples", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := h.cairn("piext", 100, 30)
	p.waitText("test-model")

	t.Log("step 1: /footer puts the extension's footer in place of cairn's")
	p.typeText("/footer")
	p.keys("Enter")
	screen := p.waitFor("the extension's footer", func(s string) bool {
		last := lastRows(s, 1)
		return strings.Contains(last, "↑0 ↓0 $0.000") && strings.HasSuffix(strings.TrimRight(last, " "), "test-model")
	})
	if strings.Contains(lastRows(screen, 1), "~/project") {
		t.Errorf("cairn's footer is still there:\n%s", frame(screen))
	}

	t.Log("step 2: the session started: the header's mascot tops the transcript")
	screen = p.waitText("shitty coding agent v0.87.1", "██████████████")
	if !fits(screen, 100, 30) {
		t.Errorf("the screen does not fit:\n%s", frame(screen))
	}

	t.Log("step 3: an answer's tokens show in the footer")
	h.llm.queue(textReply("Hello there.", 8))
	p.typeText("hi")
	p.keys("Enter")
	p.waitFor("the answer's tokens in the footer", func(s string) bool {
		return strings.Contains(s, "Hello there.") && !strings.Contains(lastRows(s, 1), "↑0 ↓0")
	})
}
