package export

import (
	"bufio"
	"strings"

	"github.com/cairn-dev/cairn/core/escape"
)

// escaped says which bytes text must not carry into HTML as they are.
var escaped = func() (t [256]bool) {
	for _, c := range []byte("<>&\"'") {
		t[c] = true
	}
	for c := 0; c < 0x20; c++ {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	t[0x7f] = true
	return t
}()

// writeEscaped writes s as HTML text, safe inside an element or a quoted
// attribute. Control characters other than tab and line ends are dropped,
// since HTML has no way to show them.
func writeEscaped(w *bufio.Writer, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escaped[c] {
			continue
		}
		w.WriteString(s[start:i])
		start = i + 1
		switch c {
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '&':
			w.WriteString("&amp;")
		case '"':
			w.WriteString("&#34;")
		case '\'':
			w.WriteString("&#39;")
		}
	}
	w.WriteString(s[start:])
}

// writeTerminal writes the output of a command as HTML text, without the
// terminal's escape sequences (colours, cursor moves, titles).
func writeTerminal(w *bufio.Writer, s string) {
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			writeEscaped(w, s)
			return
		}
		writeEscaped(w, s[:i])
		s = s[i+escape.Len(s[i:]):]
	}
}
