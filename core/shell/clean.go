package shell

import (
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/escape"
)

// Clean turns a command's terminal output into plain text, for a model or
// any view that does not emulate a terminal:
//   - escape sequences (colours, cursor moves, titles, hyperlinks) are
//     removed;
//   - a carriage return starts the line over, as a progress bar redrawing
//     itself means it: a line keeps only what follows its last carriage
//     return that has text after it ("get 10%\rget 100%" is "get 100%";
//     "a\r\n" is "a\n");
//   - other control characters, but tab and newline, are dropped, C1
//     controls (U+0080-U+009F) too;
//   - each run of invalid UTF-8 becomes one U+FFFD.
//
// Redraws by cursor movement (multi-line progress displays) are not
// replayed: their lines stay, without the escapes. Clean returns s itself
// when there is nothing to change. Clean(Clean(s)) == Clean(s).
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	out, _ := clean(s, true, false)
	return out
}

// clean is Clean; with redraws false a carriage return is kept as it is
// instead of starting the line over (for output shown piece by piece,
// where text already shown cannot be taken back). invalid says the text
// before s ended in a U+FFFD for invalid bytes, and the result says
// whether s does, so a run of invalid bytes split across pieces still
// becomes one U+FFFD.
func clean(s string, redraws, invalid bool) (string, bool) {
	b := make([]byte, 0, len(s))
	lineStart := 0   // where the current line starts in b
	redraw := false  // a carriage return waits for the line's next text
	keep := func() { // before text is written
		if redraw {
			b, redraw = b[:lineStart], false
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == escape.ESC:
			i += escape.Len(s[i:])
			continue
		case c == '\n':
			b = append(b, '\n')
			lineStart, redraw, invalid = len(b), false, false
		case c == '\r' && !redraws:
			b = append(b, '\r')
			invalid = false
		case c == '\r':
			redraw, invalid = true, false
		case c == '\t' || (c >= 0x20 && c < 0x7f):
			keep()
			b = append(b, c)
			invalid = false
		case c < 0x80: // C0 controls and DEL
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				if !invalid {
					keep()
					b = append(b, "\uFFFD"...)
					invalid = true
				}
			case r < 0xa0: // C1 controls
			default:
				keep()
				b = append(b, s[i:i+size]...)
				invalid = false
			}
			i += size
			continue
		}
		i++
	}
	return string(b), invalid
}

// isClean reports whether Clean has nothing to change in s.
func isClean(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\n', c == '\t':
		case c >= 0x80:
			ascii = false
			// U+0080-U+009F are encoded as C2 80 to C2 9F.
			if c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0 {
				return false
			}
		default:
			return false
		}
	}
	return ascii || utf8.ValidString(s)
}

// Stream cleans output that arrives in pieces, for a live view such as
// rpc's bash_execution_update: what Clean removes is removed, but carriage
// returns are kept, since text already passed on cannot be redrawn. An
// escape sequence or a UTF-8 character cut off at the end of a piece is
// held back until the next piece completes it. The zero value is ready to
// use; a Stream is for one goroutine.
type Stream struct {
	held    []byte
	invalid bool // the text passed on ends in a U+FFFD for invalid bytes
}

// maxHeld bounds what a Stream holds back: a longer unfinished sequence
// (a runaway OSC) is passed on, and dropped by cleaning, rather than kept.
const maxHeld = 4096

// Write cleans p, with whatever was held back before it, and returns the
// text that can be passed on now.
func (st *Stream) Write(p []byte) string {
	buf := append(st.held, p...)
	cut := incompleteTail(buf)
	if len(buf)-cut > maxHeld {
		cut = len(buf)
	}
	var out string
	out, st.invalid = clean(string(buf[:cut]), false, st.invalid)
	st.held = append(st.held[:0], buf[cut:]...)
	return out
}

// Flush returns what is still held back, cleaned: the output ended.
func (st *Stream) Flush() string {
	var out string
	out, st.invalid = clean(string(st.held), false, st.invalid)
	st.held = st.held[:0]
	return out
}

// incompleteTail returns where an unfinished escape sequence or UTF-8
// character at the end of b starts, or len(b) when b ends complete.
func incompleteTail(b []byte) int {
	// An escape sequence that reaches the end of b without its final byte:
	// sequences are followed from the start, so one that is still open
	// (an OSC holding an ESC or a cut character) is found whole.
	text := string(b) // one copy; slicing it below copies nothing
	for i := 0; i < len(text); {
		if text[i] != escape.ESC {
			i++
			continue
		}
		seq := text[i:]
		n := escape.Len(seq)
		if n == len(seq) && !sequenceComplete(seq) {
			return i
		}
		i += n
	}
	// A UTF-8 character whose last bytes have not come yet.
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if b[i] >= 0x80 && !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// sequenceComplete reports whether seq, an escape sequence escape.Len
// measured to its end, has its final byte or terminator.
func sequenceComplete(seq string) bool {
	n := len(seq)
	if n < 2 {
		return false
	}
	last := seq[n-1]
	switch seq[1] {
	case '[':
		return n >= 3 && last >= 0x40 && last <= 0x7e
	case ']', 'P', 'X', '^', '_':
		return last == 0x07 || (n >= 4 && seq[n-2] == escape.ESC && last == '\\')
	}
	return last >= 0x30 && last <= 0x7e
}
