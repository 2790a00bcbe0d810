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
	b := make([]byte, 0, len(s))
	lineStart := 0   // where the current line starts in b
	redraw := false  // a carriage return waits for the line's next text
	invalid := false // the last thing written is a U+FFFD for invalid bytes
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
	return string(b)
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
