package editor

// Keys lists, for each editor action, the key strings that trigger it. A key
// string is what tea.KeyPressMsg.String returns, such as "enter",
// "shift+enter", "ctrl+j" or "alt+left". The parent fills Keys from the
// user's keymap; DefaultKeys gives the built-in bindings. One key may serve
// several actions when the editor can tell them apart: "up" is both
// HistoryPrev (on the first row) and Up (elsewhere), and CompletionPrev
// while a completion popup is open.
type Keys struct {
	// Submit sends the input as a SubmitMsg and clears the editor.
	Submit []string
	// NewLine inserts a line break.
	NewLine []string
	// FollowUp sends the input as a SubmitMsg with FollowUp set.
	FollowUp []string
	// HistoryPrev recalls the previous history entry when the cursor is on
	// the first row.
	HistoryPrev []string
	// HistoryNext recalls the next history entry, or the draft, when the
	// cursor is on the last row.
	HistoryNext []string
	// Complete accepts the selected completion.
	Complete []string
	// CompletionPrev and CompletionNext move the selection in an open popup.
	CompletionPrev []string
	// CompletionNext moves the selection down in an open popup.
	CompletionNext []string
	// CloseCompletion closes an open popup.
	CloseCompletion []string

	// Left moves the cursor one character left.
	Left []string
	// Right moves the cursor one character right.
	Right []string
	// Up moves the cursor one row up.
	Up []string
	// Down moves the cursor one row down.
	Down []string
	// WordLeft moves the cursor to the start of the previous word.
	WordLeft []string
	// WordRight moves the cursor past the end of the next word.
	WordRight []string
	// LineStart moves the cursor to the start of the line.
	LineStart []string
	// LineEnd moves the cursor to the end of the line.
	LineEnd []string
	// InputStart moves the cursor to the start of the input.
	InputStart []string
	// InputEnd moves the cursor to the end of the input.
	InputEnd []string
	// DeleteBack deletes the character (or paste marker) before the cursor.
	DeleteBack []string
	// DeleteForward deletes the character (or paste marker) under the cursor.
	DeleteForward []string
	// DeleteWordBack deletes the word before the cursor.
	DeleteWordBack []string
	// DeleteWordForward deletes the word after the cursor.
	DeleteWordForward []string
	// DeleteToLineStart deletes from the start of the line to the cursor.
	DeleteToLineStart []string
	// DeleteToLineEnd deletes from the cursor to the end of the line.
	DeleteToLineEnd []string
}

// DefaultKeys returns the built-in bindings: Enter submits, Shift+Enter and
// Ctrl+J break the line, Alt+Enter queues a follow-up, and the editing keys
// follow the usual terminal (emacs) conventions.
func DefaultKeys() Keys {
	return Keys{
		Submit:          []string{"enter"},
		NewLine:         []string{"shift+enter", "ctrl+j"},
		FollowUp:        []string{"alt+enter"},
		HistoryPrev:     []string{"up"},
		HistoryNext:     []string{"down"},
		Complete:        []string{"tab"},
		CompletionPrev:  []string{"up", "ctrl+p"},
		CompletionNext:  []string{"down", "ctrl+n"},
		CloseCompletion: []string{"esc"},

		Left:              []string{"left", "ctrl+b"},
		Right:             []string{"right", "ctrl+f"},
		Up:                []string{"up", "ctrl+p"},
		Down:              []string{"down", "ctrl+n"},
		WordLeft:          []string{"alt+left", "ctrl+left", "alt+b"},
		WordRight:         []string{"alt+right", "ctrl+right", "alt+f"},
		LineStart:         []string{"home", "ctrl+a"},
		LineEnd:           []string{"end", "ctrl+e"},
		InputStart:        []string{"ctrl+home", "alt+<"},
		InputEnd:          []string{"ctrl+end", "alt+>"},
		DeleteBack:        []string{"backspace", "ctrl+h"},
		DeleteForward:     []string{"delete", "ctrl+d"},
		DeleteWordBack:    []string{"alt+backspace", "ctrl+w", "ctrl+backspace"},
		DeleteWordForward: []string{"alt+delete", "alt+d", "ctrl+delete"},
		DeleteToLineStart: []string{"ctrl+u"},
		DeleteToLineEnd:   []string{"ctrl+k"},
	}
}

// action is a set of editor actions, one bit each.
type action uint32

const (
	actSubmit action = 1 << iota
	actNewLine
	actFollowUp
	actHistoryPrev
	actHistoryNext
	actComplete
	actCompletionPrev
	actCompletionNext
	actCloseCompletion
	actLeft
	actRight
	actUp
	actDown
	actWordLeft
	actWordRight
	actLineStart
	actLineEnd
	actInputStart
	actInputEnd
	actDeleteBack
	actDeleteForward
	actDeleteWordBack
	actDeleteWordForward
	actDeleteToLineStart
	actDeleteToLineEnd
)

// keyTable maps a key string to every action bound to it, so a key press
// costs one map lookup however many bindings there are.
type keyTable map[string]action

func (k Keys) table() keyTable {
	t := keyTable{}
	add := func(a action, keys []string) {
		for _, s := range keys {
			t[s] |= a
		}
	}
	add(actSubmit, k.Submit)
	add(actNewLine, k.NewLine)
	add(actFollowUp, k.FollowUp)
	add(actHistoryPrev, k.HistoryPrev)
	add(actHistoryNext, k.HistoryNext)
	add(actComplete, k.Complete)
	add(actCompletionPrev, k.CompletionPrev)
	add(actCompletionNext, k.CompletionNext)
	add(actCloseCompletion, k.CloseCompletion)
	add(actLeft, k.Left)
	add(actRight, k.Right)
	add(actUp, k.Up)
	add(actDown, k.Down)
	add(actWordLeft, k.WordLeft)
	add(actWordRight, k.WordRight)
	add(actLineStart, k.LineStart)
	add(actLineEnd, k.LineEnd)
	add(actInputStart, k.InputStart)
	add(actInputEnd, k.InputEnd)
	add(actDeleteBack, k.DeleteBack)
	add(actDeleteForward, k.DeleteForward)
	add(actDeleteWordBack, k.DeleteWordBack)
	add(actDeleteWordForward, k.DeleteWordForward)
	add(actDeleteToLineStart, k.DeleteToLineStart)
	add(actDeleteToLineEnd, k.DeleteToLineEnd)
	return t
}

// has reports whether the set a contains any of the actions in b.
func (a action) has(b action) bool { return a&b != 0 }
