package tui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/bashmode"
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// componentDismissKey closes an extension's component from cairn's side,
// whatever the component does with keys: the way out of one whose
// extension no longer answers. Every other key, Escape included, goes to
// the component, as in pi.
const componentDismissKey = "ctrl+c"

// extComponent is an extension's interactive component (pi's
// ctx.ui.custom) on the screen: the extension draws it and takes its
// keys; the TUI shows its lines, in place of the editor or as an
// overlay.
type extComponent struct {
	id       string
	ext      string
	overlay  bool
	editor   bool // in the editor's place until closed (exteditor.go)
	handle   core.Component
	lines    []string
	row, col int
}

// onComponent takes a component's event.
func (m *Model) onComponent(e core.Event) tea.Cmd {
	switch e := e.(type) {
	case core.ComponentShown:
		if e.Handle == nil {
			return nil
		}
		m.components = append(m.components, &extComponent{id: e.ID, ext: e.Extension, overlay: e.Overlay, editor: e.Editor, handle: e.Handle})
		e.Handle.Resize(max(m.width, 1), max(m.height, 1))
		if e.Editor {
			m.editorShown(e.Handle)
		}
	case core.ComponentRendered:
		if c := m.componentByID(e.ID); c != nil {
			c.lines, c.row, c.col = e.Lines, e.Row, e.Col
		}
	case core.ComponentClosed:
		m.components = slices.DeleteFunc(m.components, func(c *extComponent) bool { return c.id == e.ID })
	case core.ComponentAction:
		return m.onEditorAction(e)
	}
	return nil
}

func (m *Model) componentByID(id string) *extComponent {
	for _, c := range m.components {
		if c.id == id {
			return c
		}
	}
	return nil
}

// focusedComponent is the component that has the keyboard before
// anything of cairn's: the last shown that is not an editor.
func (m *Model) focusedComponent() *extComponent {
	for i := len(m.components) - 1; i >= 0; i-- {
		if !m.components[i].editor {
			return m.components[i]
		}
	}
	return nil
}

// onComponentKey gives a key to the focused component, or dismisses it.
func (m *Model) onComponentKey(c *extComponent, k tea.KeyPressMsg) tea.Cmd {
	if k.String() == componentDismissKey {
		c.handle.Dismiss()
		return nil
	}
	// The bytes a terminal writes for the key, in its normal modes
	// (bashkeys.go), as pi-tui's matchesKey reads them.
	if data := keyBytes(k, bashmode.InputModes{}); len(data) > 0 {
		c.handle.Input(string(data))
	}
	return nil
}

// onComponentPaste gives a paste to the focused component, bracketed as
// a terminal sends it.
func (m *Model) onComponentPaste(c *extComponent, text string) {
	c.handle.Input("\x1b[200~" + text + "\x1b[201~")
}

// resizeComponents tells every component the terminal's new size.
func (m *Model) resizeComponents() {
	for _, c := range m.components {
		c.handle.Resize(max(m.width, 1), max(m.height, 1))
	}
}

// inlineComponentView is the focused inline component's lines, with how
// to leave it, drawn in place of the editor; "" when there is none.
func (m *Model) inlineComponentView(w int) (string, bool) {
	var c *extComponent
	for _, x := range m.components {
		if !x.overlay && !x.editor {
			c = x
		}
	}
	if c == nil {
		c = m.editorComponent()
	}
	if c == nil {
		return "", false
	}
	lines := make([]string, 0, len(c.lines)+1)
	for _, l := range c.lines {
		lines = append(lines, componentLine(l, w))
	}
	if c.editor {
		return strings.Join(lines, "\n"), true
	}
	lines = append(lines, m.st.muted.Render(ansi.Truncate(" "+componentDismissKey+" closes this panel ("+escape.Visible(c.ext)+" extension)", w, "…")))
	return strings.Join(lines, "\n"), true
}

// overlayComponents draws the overlay components over the screen.
func (m *Model) overlayComponents(screen string) string {
	if !slices.ContainsFunc(m.components, func(c *extComponent) bool { return c.overlay }) {
		return screen
	}
	rows := strings.Split(screen, "\n")
	for _, c := range m.components {
		if c.overlay {
			rows = overlay(rows, c, m.width)
		}
	}
	return strings.Join(rows, "\n")
}

// overlay puts c's lines over rows, its top left at c.row and c.col.
func overlay(rows []string, c *extComponent, width int) []string {
	col := min(c.col, max(width-1, 0))
	w := 0
	lines := make([]string, len(c.lines))
	for i, l := range c.lines {
		lines[i] = componentLine(l, width-col)
		w = max(w, ansi.StringWidth(lines[i]))
	}
	for i, l := range lines {
		r := c.row + i
		if r < 0 || r >= len(rows) {
			continue
		}
		base := rows[r]
		left := ansi.Truncate(base, col, "")
		if pad := col - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		fill := strings.Repeat(" ", w-ansi.StringWidth(l))
		rows[r] = left + "\x1b[0m" + l + fill + "\x1b[0m" + ansi.TruncateLeft(base, col+w, "")
	}
	return rows
}

// componentLine is one line an extension drew, made safe to show: its
// colours (SGR sequences) kept, every other escape sequence dropped
// (cursor moves, titles, pi-tui's cursor marker) and control characters
// shown as visible escapes, cut to w cells.
func componentLine(s string, w int) string {
	var b strings.Builder
	styled := false
	for len(s) > 0 {
		i := strings.IndexByte(s, escape.ESC)
		if i < 0 {
			b.WriteString(escape.Visible(s))
			break
		}
		b.WriteString(escape.Visible(s[:i]))
		n := max(escape.Len(s[i:]), 1)
		if seq := s[i : i+n]; isSGR(seq) {
			b.WriteString(seq)
			styled = true
		}
		s = s[i+n:]
	}
	out := ansi.Truncate(b.String(), max(w, 0), "")
	if styled {
		out += "\x1b[0m"
	}
	return out
}

// isSGR reports whether seq is a Select Graphic Rendition sequence
// (colours, bold, inverse): ESC [ digits, ';' and ':' then m.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, r := range seq[2 : len(seq)-1] {
		if (r < '0' || r > '9') && r != ';' && r != ':' {
			return false
		}
	}
	return true
}
