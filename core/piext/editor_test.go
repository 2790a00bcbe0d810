package piext

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// editorAt starts the example file in cairn's TUI mode and fires
// session_start, where it sets its editor; it returns the editor shown.
func editorAt(t *testing.T, file string, width int) (*harness, *shownComponent) {
	t.Helper()
	h := startHost(t, "custom", file)
	if _, err := h.ic.SessionStart(t.Context(), agent.SessionStartEvent{Source: agent.StartStartup}); err != nil {
		t.Fatal(err)
	}
	c := h.component(t, width, 20)
	h.host.mu.Lock()
	shown := h.host.shown[c.seen].(core.ComponentShown)
	h.host.mu.Unlock()
	if !shown.Editor || shown.Overlay {
		t.Fatalf("shown as %+v, want an editor in the editor's place", shown)
	}
	return h, c
}

// action waits for the editor's next action after the ones already seen.
func (c *shownComponent) action(t *testing.T, seen *int) core.ComponentAction {
	t.Helper()
	var got core.ComponentAction
	c.h.host.waitFor(t, "an editor action", func(shown []core.Event, _ []string, _ []core.Question) bool {
		for i := *seen; i < len(shown); i++ {
			if a, ok := shown[i].(core.ComponentAction); ok && a.ID == c.id {
				got, *seen = a, i+1
				return true
			}
		}
		return false
	})
	return got
}

// modal-editor: typed text shows in insert mode; Escape goes to normal
// mode, where h moves the cursor and x deletes; i goes back; Enter
// submits the text, and Escape in normal mode asks cairn to interrupt.
func driveModalEditor(t *testing.T) {
	_, c := editorAt(t, "modal-editor.ts", 60)
	c.lines(t, "INSERT")
	c.key("h", "e", "l", "l", "o")
	c.lines(t, "hello")
	c.key(keyEscape)
	c.lines(t, "NORMAL")
	// In normal mode letters are commands: h moves left, x deletes the
	// character under the cursor (the second l), and 'q' does nothing.
	c.key("h", "h", "x", "q")
	c.lines(t, "helo")
	c.key("i", "!")
	c.lines(t, "hel!o")
	seen := 0
	c.key(keyEnter)
	if a := c.action(t, &seen); a.Action != core.EditorSubmit || a.Text != "hel!o" {
		t.Errorf("Enter sent %+v, want the text submitted", a)
	}
	c.key(keyEscape, keyEscape)
	if a := c.action(t, &seen); a.Action != core.EditorInterrupt {
		t.Errorf("Escape in normal mode sent %+v, want interrupt", a)
	}
	c.key("\x04")
	if a := c.action(t, &seen); a.Action != core.EditorExit {
		t.Errorf("ctrl+d in an empty editor sent %+v, want exit", a)
	}
}

// rainbow-editor: "ultrathink" is drawn in colours, the rest plain.
func driveRainbowEditor(t *testing.T) {
	_, c := editorAt(t, "rainbow-editor.ts", 60)
	for _, k := range "say ultrathink" {
		c.key(string(k))
	}
	lines := c.lines(t, "ultrathink")
	joined := strings.Join(lines, "\n")
	if !strings.Contains(joined, "\x1b[38;2;") || strings.Contains(joined, "ultrathink") {
		t.Errorf("ultrathink not coloured letter by letter: %q", joined)
	}
	seen := 0
	c.key(keyEnter)
	if a := c.action(t, &seen); a.Text != "say ultrathink" {
		t.Errorf("submitted %+v", a)
	}
}

// border-status-editor: the editor's bottom border shows the model, the
// thinking level, the context's use and the working directory; the
// footer is emptied (pi's setFooter, shown by cairn already).
func driveBorderStatusEditor(t *testing.T) {
	h, c := editorAt(t, "border-status-editor.ts", 300)
	lines := c.lines(t, "ctx ?")
	last := stripSGR(lines[len(lines)-1])
	if !strings.Contains(last, h.cwd) || !strings.HasPrefix(last, "─") {
		t.Errorf("bottom border %q, want the working directory %s in it", last, h.cwd)
	}
	c.key("o", "k")
	c.lines(t, "ok")
	seen := 0
	c.key(keyEnter)
	if a := c.action(t, &seen); a.Action != core.EditorSubmit || a.Text != "ok" {
		t.Errorf("Enter sent %+v", a)
	}
}

// Headless, as in pi's rpc mode, setEditorComponent does nothing.
func TestEditorHeadlessIgnored(t *testing.T) {
	h := startHost(t, "tui", "modal-editor.ts")
	if _, err := h.ic.SessionStart(t.Context(), agent.SessionStartEvent{Source: agent.StartStartup}); err != nil {
		t.Fatal(err)
	}
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	for _, e := range h.host.shown {
		if _, ok := e.(core.ComponentShown); ok {
			t.Errorf("an editor was shown without custom in the UI list")
		}
	}
	if n := notices(h.host.shown); n != "" {
		t.Errorf("notices %q", n)
	}
}

// While an extension's editor is set, ctx.ui's editor text is its text,
// as in pi: setEditorText fills it, pasteToEditor types at its cursor,
// getEditorText reads it; setEditorComponent(undefined) closes it and
// hands its text back to cairn's editor.
func TestEditorText(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ed.ts")
	src := `import { CustomEditor } from "@earendil-works/pi-coding-agent";
export default function (pi) {
	pi.on("session_start", (_e, ctx) => ctx.ui.setEditorComponent((tui, theme, kb) => new CustomEditor(tui, theme, kb)));
	pi.registerCommand("peek", { handler: async (_args, ctx) => {
		ctx.ui.setEditorText("abc");
		ctx.ui.pasteToEditor("-x");
		ctx.ui.notify("text: " + ctx.ui.getEditorText());
	} });
	pi.registerCommand("plain", { handler: async (_args, ctx) => ctx.ui.setEditorComponent(undefined) });
}
`
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	h, c := editorAt(t, file, 60)
	h.input(t, "/peek")
	c.lines(t, "abc-x")
	h.host.waitFor(t, "the editor's text told", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "text: abc-x")
	})
	// Unset, the editor hands its text back to cairn's, as in pi.
	h.input(t, "/plain")
	c.closed(t)
	h.host.waitFor(t, "the text handed back", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.EditorTextSet{Text: "abc-x"}))
	})
}
