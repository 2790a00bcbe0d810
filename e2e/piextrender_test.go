package e2e

import (
	"os"
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
	needNode(t)
	h := newHarness(t, tmuxTerminal)
	h.installPiExamples(t, "custom-footer.ts", "custom-header.ts")
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

// TestTUIPiExtensionToolRenderer: pi's built-in-tool-renderer.ts draws
// cairn's built-in bash and read calls compactly (cairn's tools still
// run: their names are cairn's own).
func TestTUIPiExtensionToolRenderer(t *testing.T) {
	needNode(t)
	h := newHarness(t, tmuxTerminal)
	h.installPiExamples(t, "built-in-tool-renderer.ts")
	if err := os.WriteFile(filepath.Join(h.project, "notes.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := h.cairn("tools", 100, 30, "--approval", "yolo")
	p.waitText("test-model")
	h.llm.queue(
		reply{toolCalls: []fakeToolCall{{id: "call_read", name: "read", arguments: `{"path":"notes.txt"}`}}},
		textReply("Read it.", 8),
	)
	p.typeText("read the notes")
	p.keys("Enter")
	// pi's read counts the empty line after the last newline: 4 lines,
	// where cairn's own drawing says 3.
	screen := p.waitText("Read it.", "read notes.txt", "4 lines")
	if strings.Contains(screen, "✓ read") {
		t.Errorf("cairn's own drawing of the call is still there:\n%s", frame(screen))
	}
}
