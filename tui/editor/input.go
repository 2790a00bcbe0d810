package editor

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// textMods are the modifiers under which a key's text is a shortcut, not
// something to type.
const textMods = tea.ModCtrl | tea.ModAlt | tea.ModMeta | tea.ModSuper | tea.ModHyper

// popupActions are the actions of the completion popup.
const popupActions = actCompletionPrev | actCompletionNext | actComplete | actCloseCompletion

// key handles one key press.
func (s *state) key(k tea.KeyPressMsg) tea.Cmd {
	a := s.keys[k.String()]
	if s.comp.open() {
		if cmd, ok := s.completionKey(a); ok {
			return cmd
		}
	}
	switch {
	case a.has(actSubmit):
		return s.submitKey()
	case a.has(actFollowUp):
		return s.submit(true)
	case a.has(actNewLine):
		s.buf.insert([]rune{'\n'})
	case s.historyKey(a):
	case a != 0 && a&^popupActions == 0:
		// Keys that only mean something to an open popup do nothing here.
		return nil
	default:
		if s.editKey(a) {
			return s.changed()
		}
		if k.Text == "" || k.Mod&textMods != 0 {
			return nil
		}
		s.buf.insert(sanitize(k.Text))
	}
	return s.changed()
}

// historyKey recalls history when a history key is pressed on the first
// (or last) row, and reports whether it did.
func (s *state) historyKey(a action) bool {
	switch {
	case a.has(actHistoryPrev) && s.buf.onFirstRow():
		return s.historyPrev()
	case a.has(actHistoryNext) && s.buf.onLastRow():
		return s.historyNext()
	}
	return false
}

// editKey performs a cursor movement or deletion, and reports whether a
// was one.
func (s *state) editKey(a action) bool {
	b := s.buf
	switch {
	case a.has(actUp):
		b.up()
	case a.has(actDown):
		b.down()
	case a.has(actLeft):
		b.left()
	case a.has(actRight):
		b.right()
	case a.has(actWordLeft):
		b.wordLeft()
	case a.has(actWordRight):
		b.wordRight()
	case a.has(actLineStart):
		b.lineStart()
	case a.has(actLineEnd):
		b.lineEnd()
	case a.has(actInputStart):
		b.inputStart()
	case a.has(actInputEnd):
		b.inputEnd()
	case a.has(actDeleteBack):
		b.deleteBack()
	case a.has(actDeleteForward):
		b.deleteForward()
	case a.has(actDeleteWordBack):
		b.deleteWordBack()
	case a.has(actDeleteWordForward):
		b.deleteWordForward()
	case a.has(actDeleteToLineStart):
		b.deleteToLineStart()
	case a.has(actDeleteToLineEnd):
		b.deleteToLineEnd()
	default:
		return false
	}
	return true
}

// submitKey submits, unless the cursor follows a backslash: then, as in
// Claude Code, Enter breaks the line and the backslash goes. In bash mode
// the backslash stays, since there it is the shell's own line
// continuation.
func (s *state) submitKey() tea.Cmd {
	b := s.buf
	if l := b.cur().runes; b.col > 0 && l[b.col-1] == '\\' {
		if s.mode() != ModeBash {
			b.remove(b.col-1, b.col)
		}
		b.insert([]rune{'\n'})
		return s.changed()
	}
	return s.submit(false)
}

// submit sends the input, records it in history and clears the editor. A
// blank input is not sent.
func (s *state) submit(followUp bool) tea.Cmd {
	text := Model{s}.Value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	sub := SubmitMsg{Text: text, Images: s.images(), FollowUp: followUp}
	cmds := []tea.Cmd{func() tea.Msg { return sub }}
	if s.hist.add(text) && s.journal != nil {
		cmds = append(cmds, s.journal.record(text))
	}
	s.clear()
	s.changed()
	return tea.Batch(cmds...)
}

// paste inserts pasted text: small pastes as if typed, large ones as a
// marker standing for the exact text (line breaks normalised to "\n").
func (s *state) paste(content string) tea.Cmd {
	text := normalizeNewlines(content)
	if text == "" {
		return nil
	}
	if lines, chars := pasteSize(text); isLargePaste(lines, chars) {
		s.buf.insert([]rune{s.pastes.add(text, lines, chars)})
	} else {
		s.buf.insert(sanitize(text))
	}
	return s.changed()
}
