package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// quitWindow is how soon a second ctrl+c must follow the first to quit.
const quitWindow = 1500 * time.Millisecond

// onKey routes a key to whatever has the focus: a prompt or picker first,
// then a running `!cmd`, then the app's own keys, then the editor.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if c := m.focusedComponent(); c != nil {
		// An extension's component has the keyboard, as in pi.
		return m.onComponentKey(c, k)
	}
	if cmd, ok := m.onScrollKey(k); ok {
		return cmd
	}
	if m.approval != nil {
		if cmd, ok := m.onApprovalKey(k); ok {
			return cmd
		}
		m.syncFocus() // the key goes to the editor, which takes it back
	}
	switch {
	case m.dialog != nil:
		return m.onDialogKey(k)
	case m.picker != nil:
		return m.onPickerKey(k)
	}
	if m.bash != nil {
		return m.onBashKey(k)
	}
	if cmd, ok := m.onExtShortcut(k); ok {
		return cmd
	}
	if c := m.editorComponent(); c != nil {
		return m.onEditorComponentKey(c, k)
	}
	if cmd, ok := m.onAppKey(k); ok {
		return cmd
	}
	if m.firstRun != nil && !strings.HasPrefix(m.ed.Value(), "!") && m.is(k, keymap.Submit) && !strings.HasPrefix(m.ed.Value(), "/") {
		m.status.set(core.NotifyWarning, "No model is set up yet: see above. !cmd and /commands work.", m.now())
		return nil
	}
	if k.Text != "" {
		m.lastTyped = m.now()
	}
	return m.updateEditor(k)
}

func (m *Model) is(k tea.KeyPressMsg, a keymap.Action) bool { return m.keys.Matches(k, a) }

// onScrollKey moves the transcript.
func (m *Model) onScrollKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	// Only a scroll key measures the transcript: that draws everything
	// under it, which a typed key must not pay for.
	scroll := func(pages int) {
		h := m.transcriptHeight()
		m.tr.scroll(m.renderContext(), h, pages*max(h-2, 1))
	}
	if m.approval != nil && m.approval.window > 0 {
		// A prompt taller than its room takes the scroll keys: the
		// person reads all of what they approve before answering.
		step := max(m.approval.window-1, 1)
		switch {
		case m.is(k, keymap.ScrollUp):
			return nil, m.scrollApproval(-step)
		case m.is(k, keymap.ScrollDown):
			return nil, m.scrollApproval(step)
		case m.approval.focused && m.is(k, keymap.SelectUp):
			return nil, m.scrollApproval(-1)
		case m.approval.focused && m.is(k, keymap.SelectDown):
			return nil, m.scrollApproval(1)
		}
	}
	before := len(m.tr.entries)
	switch {
	case m.is(k, keymap.ScrollUp):
		scroll(-1)
	case m.is(k, keymap.ScrollDown):
		scroll(1)
	case m.is(k, keymap.ScrollTop):
		m.tr.home()
	case m.is(k, keymap.ScrollBottom):
		m.tr.end()
	case (k.String() == "home" || k.String() == "end") && m.approval == nil && m.dialog == nil && m.picker == nil && m.bash == nil && m.ed.Empty() && m.editorComponent() == nil:
		if k.String() == "home" {
			m.tr.home()
		} else {
			m.tr.end()
		}
	default:
		return nil, false
	}
	return m.olderShown(before), true
}

// olderShown reads the steps of the task calls among the older items the
// transcript just made (it held before entries), when calls are expanded.
func (m *Model) olderShown(before int) tea.Cmd {
	if len(m.tr.entries) == before {
		return nil
	}
	return m.loadTranscripts()
}

// onWheel scrolls three lines per notch.
func (m *Model) onWheel(w tea.MouseWheelMsg) tea.Cmd {
	rc := m.renderContext()
	before := len(m.tr.entries)
	switch w.Mouse().Button {
	case tea.MouseWheelUp:
		m.tr.scroll(rc, m.transcriptHeight(), -3)
	case tea.MouseWheelDown:
		m.tr.scroll(rc, m.transcriptHeight(), 3)
	}
	return m.olderShown(before)
}

// onAppKey handles the keys that act on the whole app.
func (m *Model) onAppKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case m.is(k, keymap.Interrupt):
		if m.ed.CompletionOpen() {
			return nil, false
		}
		if m.busy {
			m.abort()
			return nil, true
		}
		if m.ed.Empty() {
			return m.onEmptyEsc(), true
		}
		return nil, false
	case k.Code == tea.KeyEscape && k.Mod == tea.ModAlt && !m.busy && m.ed.Empty() && !m.ed.CompletionOpen():
		// Two escapes read in one go decode as alt+esc.
		return m.cmdRewind(""), true
	case m.is(k, keymap.Clear):
		if !m.ed.Empty() {
			m.ed.Reset()
			return nil, true
		}
		if m.busy {
			m.abort()
			return nil, true
		}
		if !m.quitArmed.IsZero() && m.now().Sub(m.quitArmed) < quitWindow {
			return m.quit(), true
		}
		m.quitArmed = m.now()
		m.status.set(core.NotifyInfo, "Press ctrl+c again to quit.", m.now())
		return nil, true
	case m.is(k, keymap.Exit) && m.ed.Empty():
		return m.quit(), true
	case m.is(k, keymap.Suspend) && m.opts.Attached:
		// Suspending would stop the process that owns the session.
		m.status.set(core.NotifyInfo, "This terminal is attached to another cairn: quit with ctrl+d instead of suspending.", m.now())
		return nil, true
	case m.is(k, keymap.Suspend):
		return tea.Suspend, true
	case m.is(k, keymap.ExternalEditor) && m.opts.Attached:
		m.status.set(core.NotifyInfo, "The external editor opens only in the terminal that owns the session.", m.now())
		return nil, true
	case m.is(k, keymap.ExternalEditor):
		return m.openExternalEditor(), true
	case m.is(k, keymap.PasteImage):
		return pasteClipboardImage(), true
	case m.is(k, keymap.ExpandTools):
		m.expandTools = !m.expandTools
		m.tr.invalidate()
		return m.loadTranscripts(), true
	case m.is(k, keymap.ToggleThinking):
		m.showThinking = !m.showThinking
		m.tr.invalidate()
		return nil, true
	case m.is(k, keymap.CycleThinkingLevel):
		if lvl, ok := m.sess.CycleThinkingLevel(); ok {
			m.noteThinking()
			m.status.set(core.NotifyInfo, m.thinkingText(lvl), m.now())
		} else {
			m.status.set(core.NotifyInfo, "This model does not think.", m.now())
		}
		m.foot.refresh(m.sess)
		return nil, true
	case m.is(k, keymap.CycleApprovalMode):
		m.cycleApprovalMode()
		return nil, true
	case m.is(k, keymap.CycleModelForward):
		return m.cycleModel(), true
	case m.is(k, keymap.SelectModel):
		m.openModelPicker("")
		return nil, true
	case m.is(k, keymap.Dequeue):
		if texts := m.sess.ClearQueues(); len(texts) > 0 {
			m.ed.SetValue(strings.Join(texts, "\n\n"))
		}
		return nil, true
	}
	return nil, false
}

// abort stops the run and puts queued messages back in the editor, so
// nothing typed is lost.
func (m *Model) abort() {
	queued := m.sess.ClearQueues()
	m.aborting = true
	m.sess.Abort()
	if len(queued) > 0 {
		text := strings.Join(queued, "\n\n")
		if cur := m.ed.Value(); cur != "" {
			text += "\n\n" + cur
		}
		m.ed.SetValue(text)
	}
	m.status.set(core.NotifyInfo, "Interrupted.", m.now())
}

// quit ends the program; the caller closes the session.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.bash != nil {
		m.bash.run.Cancel()
	}
	return tea.Quit
}

func (m *Model) onPaste(p tea.PasteMsg) tea.Cmd {
	if c := m.focusedComponent(); c != nil {
		m.onComponentPaste(c, p.Content)
		return nil
	}
	switch {
	case m.dialog != nil && m.dialog.input != nil:
		in, cmd := m.dialog.input.Update(p)
		m.dialog.input = &in
		return cmd
	case m.picker != nil:
		return m.picker.paste(p.Content)
	case m.approval != nil && m.approval.focused:
		return nil
	case m.bash != nil:
		m.sendToBash(m.bash.run.Paste(p.Content))
		return nil
	}
	if c := m.editorComponent(); c != nil {
		m.onComponentPaste(c, p.Content)
		return nil
	}
	if path, ok := pastedImagePath(p.Content, m.opts.Cwd); ok {
		return attachFile(path, p.Content)
	}
	return m.updateEditor(p)
}

// firstKey names the first key bound to a, for hints ("esc to interrupt").
func firstKey(km keymap.Map, a keymap.Action) string {
	if k := km.Keys(a); len(k) > 0 {
		return k[0]
	}
	return string(a)
}
