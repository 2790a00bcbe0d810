package markdown

import (
	"strconv"

	"charm.land/lipgloss/v2"

	"github.com/cairn-dev/cairn/core/escape"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func quote(s string) string { return strconv.Quote(s) }

// stripANSI removes SGR and OSC sequences, leaving the text a user reads.
func stripANSI(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		if n := escape.Len(s[i:]); n > 0 {
			i += n
			continue
		}
		b = append(b, s[i])
		i++
	}
	return string(b)
}

var darkStyleForBench = lipgloss.NewStyle().Faint(true).Italic(true)
