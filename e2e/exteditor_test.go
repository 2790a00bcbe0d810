package e2e

import (
	"strings"
	"testing"
)

// TestTUIExtensionEditor drives pi's modal-editor.ts (a CustomEditor set
// with ctx.ui.setEditorComponent) in the TUI: its editor takes the
// editor's place at start, Escape turns it to normal mode and i back,
// and the text typed in it is sent to the model as a prompt.
func TestTUIExtensionEditor(t *testing.T) {
	needNode(t)
	h := newHarness(t, tmuxTerminal)
	modal := piExample(t, "modal-editor.ts")
	h.logExtensionsOnFailure(t)
	p := h.cairn("editor", 100, 30, "--approval", "yolo", "-e", modal)
	p.waitText("test-model", "INSERT")
	h.llm.queue(textReply("Hello back.", 8))
	p.typeText("hello wrld")
	p.waitText("hello wrld")
	p.keys("Escape")
	p.waitText("NORMAL")
	// Normal mode: h moves left, typed letters are commands, not text.
	p.keys("h", "h", "h", "z", "i")
	p.waitText("INSERT")
	p.typeText("o")
	p.waitText("hello world")
	p.keys("Enter")
	p.waitText("Hello back.")
	if body := string(h.llm.waitRequest(t, 0).body); !strings.Contains(body, "hello world") {
		t.Errorf("the model was not sent the editor's text: %.2000s", body)
	}
	// The editor is empty again once it has sent its text.
	p.waitFor("the editor emptied", func(screen string) bool {
		rows := strings.Split(screen, "\n")
		for i, r := range rows {
			if strings.Contains(r, "INSERT") && i > 0 {
				return strings.TrimSpace(rows[i-1]) == ""
			}
		}
		return false
	})
}
