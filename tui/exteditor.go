package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/bashmode"
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// An extension's editor (pi's ctx.ui.setEditorComponent) is a component
// in the editor's place until the extension closes it. As pi's
// CustomEditor does, it gets the keys the app does not bind, and Escape
// and ctrl+d, which it sends back as actions (interrupt, exit) when it
// does not use them itself; what it submits goes out as cairn's own
// editor sends it.

// editorComponent is the extension's editor shown, the last set; nil
// when cairn's own editor is in place.
func (m *Model) editorComponent() *extComponent {
	for i := len(m.components) - 1; i >= 0; i-- {
		if m.components[i].editor {
			return m.components[i]
		}
	}
	return nil
}

// editorShown moves the draft of cairn's editor into the extension's, as
// pi carries the text over when the editor is replaced.
func (m *Model) editorShown(h core.Component) {
	if text := m.ed.Value(); text != "" {
		h.Input("\x1b[200~" + text + "\x1b[201~")
		m.ed.Reset()
	}
}

// editorKeepsKey reports whether a key bound to an app action stays
// cairn's while an extension's editor is shown: all but Escape and
// ctrl+d (the editor's, sent back as actions) and those acting on
// cairn's own hidden editor.
func (m *Model) editorKeepsKey(k tea.KeyPressMsg) bool {
	for _, a := range []keymap.Action{keymap.Interrupt, keymap.Exit, keymap.ExternalEditor, keymap.Dequeue, keymap.PasteImage} {
		if m.is(k, a) {
			return false
		}
	}
	return true
}

// onEditorComponentKey gives a key to the extension's editor unless it
// is one of the app's.
func (m *Model) onEditorComponentKey(c *extComponent, k tea.KeyPressMsg) tea.Cmd {
	if m.editorKeepsKey(k) {
		if cmd, ok := m.onAppKey(k); ok {
			return cmd
		}
	}
	if k.Text != "" {
		m.lastTyped = m.now()
	}
	if data := keyBytes(k, bashmode.InputModes{}); len(data) > 0 {
		c.handle.Input(string(data))
	}
	return nil
}

// onEditorAction does what the extension's editor asks: send its text,
// stop the run, or quit.
func (m *Model) onEditorAction(e core.ComponentAction) tea.Cmd {
	c := m.componentByID(e.ID)
	if c == nil || !c.editor {
		return nil
	}
	switch e.Action {
	case core.EditorSubmit:
		return m.onSubmit(editor.SubmitMsg{Text: e.Text})
	case core.EditorInterrupt:
		if m.busy {
			m.abort()
		}
	case core.EditorExit:
		return m.quit()
	}
	return nil
}
