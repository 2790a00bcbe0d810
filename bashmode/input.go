package bashmode

import (
	"errors"
	"strings"
)

// MaxPendingInput bounds the input queued by Send and not yet taken by the
// terminal; Send refuses more with ErrInputFull.
const MaxPendingInput = 1 << 20

// Errors of Send and Paste.
var (
	// ErrInputFull means the command is not reading its input and
	// MaxPendingInput bytes already wait for it.
	ErrInputFull = errors.New("the command is not reading its input")
	// ErrEnded means the run has ended: there is no one to type to.
	ErrEnded = errors.New("the command has ended")
)

// Terminal modes that change what a key or a paste sends.
const (
	modeAppCursor      = 1    // DECCKM: arrows send ESC O x
	modeBracketedPaste = 2004 // pastes arrive between ESC [200~ and ESC [201~
)

// Bracketed paste's markers.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// InputModes are the terminal modes the command has set that decide which
// bytes a key or a paste becomes.
type InputModes struct {
	// AppCursor is DECCKM: cursor keys send ESC O A rather than ESC [ A.
	AppCursor bool
	// BracketedPaste asks for pastes marked with ESC [200~ and ESC [201~.
	BracketedPaste bool
}

// setPrivateModes applies DECSET (on) or DECRST (off) with the parameters
// params ("1;2004"); modes the model does not track are ignored.
func (t *Term) setPrivateModes(params []byte, on bool) {
	n, seen := 0, false
	apply := func() {
		switch n {
		case modeAppCursor:
			t.modes.AppCursor = on
		case modeBracketedPaste:
			t.modes.BracketedPaste = on
		}
	}
	for _, c := range params {
		switch {
		case c >= '0' && c <= '9':
			if n < 1<<20 {
				n = n*10 + int(c-'0')
			}
			seen = true
		case c == ';':
			if seen {
				apply()
			}
			n, seen = 0, false
		default:
			return // intermediates: not DECSET
		}
	}
	if seen {
		apply()
	}
}

// Modes returns the input modes the command has set so far.
func (r *Run) Modes() InputModes {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.term.modes
}

// Send queues p to be written to the command's terminal, as typed there
// (the terminal echoes it and turns ^C, ^Z and ^\ into signals). It never
// blocks: one goroutine of the run writes the queue in order while the
// command reads it. Send returns ErrEnded once the run has ended and
// ErrInputFull, queueing nothing, when p would take the queue past
// MaxPendingInput.
func (r *Run) Send(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closed:
		return ErrEnded
	case len(r.pending)+len(p) > MaxPendingInput:
		return ErrInputFull
	}
	r.pending = append(r.pending, p...)
	select {
	case r.inputReady <- struct{}{}:
	default:
	}
	return nil
}

// Paste sends text as a terminal sends a paste: line breaks become
// carriage returns, and when the command has asked for bracketed paste the
// text comes between its markers (with any end marker inside it removed,
// so a paste cannot end itself early). Errors are those of Send.
func (r *Run) Paste(text string) error {
	return r.Send(pasteBytes(text, r.Modes().BracketedPaste))
}

// pasteBytes is what a terminal sends for a paste of text.
func pasteBytes(text string, bracketed bool) []byte {
	text = strings.ReplaceAll(text, "\r\n", "\r")
	text = strings.ReplaceAll(text, "\n", "\r")
	if bracketed {
		text = pasteStart + strings.ReplaceAll(text, pasteEnd, "") + pasteEnd
	}
	return []byte(text)
}

// writeInput writes what Send queues until the run closes the terminal.
func (r *Run) writeInput() {
	defer close(r.inputDone)
	for {
		select {
		case <-r.inputReady:
		case <-r.inputStop:
			return
		}
		r.mu.Lock()
		p := r.pending
		r.pending = nil
		r.mu.Unlock()
		// The master is non-blocking under Go's poller: a full input
		// buffer parks this goroutine, and closing the master ends it.
		if _, err := r.master.Write(p); err != nil {
			return
		}
	}
}
