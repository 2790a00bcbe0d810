package escape

import (
	"strings"
	"unicode/utf8"
)

// Text a model wrote can carry control characters that act on whoever
// shows it: ESC [8m hides what follows on a terminal, ESC [2K and \r
// rewrite a line, a right-to-left override reorders it. A question that
// shows such text raw can show one command and ask about another. Visible
// and VisibleLines turn every such character into an escape a person
// reads (\x1b, \r, \u202e), never dropping one, so what is shown is all
// there is.

// Visible returns s for one line of display: every control character (C0,
// DEL, C1, newline and tab included), bidirectional formatting character
// and byte of invalid UTF-8 written as a visible escape. s comes back as
// it is, without allocating, when it holds none.
func Visible(s string) string { return visible(s, false) }

// VisibleLines is Visible for text shown over several lines: newlines,
// tabs and the carriage return of a CRLF line ending are kept; everything
// else Visible escapes is escaped, a lone carriage return included.
func VisibleLines(s string) string { return visible(s, true) }

func visible(s string, lines bool) string {
	i := firstHidden(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, `\x`, uint32(s[i]), 2)
		case !hidden(r, lines) || lines && crlf(s, i):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			writeHex(&b, `\x`, uint32(r), 2)
		default:
			writeHex(&b, `\u`, uint32(r), 4)
		}
		i += size
	}
	return b.String()
}

// firstHidden returns the index of the first character visible would
// escape, or -1.
func firstHidden(s string, lines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || hidden(r, lines) && !(lines && crlf(s, i)) {
			return i
		}
		i += size
	}
	return -1
}

// crlf reports whether s[i:] starts with a CRLF line ending.
func crlf(s string, i int) bool { return i+1 < len(s) && s[i] == '\r' && s[i+1] == '\n' }

// hidden reports whether r acts on a display rather than showing.
func hidden(r rune, lines bool) bool {
	switch {
	case lines && (r == '\n' || r == '\t'):
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		// Bidirectional embeddings, overrides, isolates and marks.
		return true
	}
	return false
}

const hexDigits = "0123456789abcdef"

func writeHex(b *strings.Builder, prefix string, v uint32, width int) {
	b.WriteString(prefix)
	for shift := 4 * (width - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[v>>shift&0xf])
	}
}
