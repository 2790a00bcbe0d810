package toolview

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is the distance between tab stops when tabs are expanded.
const tabWidth = 4

// cleanLine makes one line of foreign text safe to draw in a cell grid:
// ANSI sequences are removed, a carriage return keeps only what a terminal
// would show after it (progress bars redraw that way), tabs become spaces
// and other control characters are dropped. Clean lines are returned as
// they are, without copying.
func cleanLine(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] != 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.Strip(s)
	}
	s = strings.TrimRight(s, "\r")
	if j := strings.LastIndexByte(s, '\r'); j >= 0 {
		s = s[j+1:]
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString("    "[:n])
			col += n
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// trimNewline drops one final line break, so text ending in a newline does
// not count an empty last line.
func trimNewline(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// countLines returns the number of lines of s, a final newline not starting
// another one; empty text has none.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(trimNewline(s), "\n") + 1
}

// headLines returns at most n first lines of s, reading no further than
// they reach.
func headLines(s string, n int) []string {
	if s == "" || n <= 0 {
		return nil
	}
	s = trimNewline(s)
	lines := make([]string, 0, min(n, 64))
	for len(lines) < n {
		line, rest, found := strings.Cut(s, "\n")
		lines = append(lines, line)
		if !found {
			break
		}
		s = rest
	}
	return lines
}

// tailLines returns at most n last lines of s, reading it backwards no
// further than they reach.
func tailLines(s string, n int) []string {
	if s == "" || n <= 0 {
		return nil
	}
	s = trimNewline(s)
	lines := make([]string, min(n, 64))
	k := 0
	for k < n {
		i := strings.LastIndexByte(s, '\n')
		if k == len(lines) {
			lines = append(lines, "")
		}
		lines[k] = s[i+1:]
		k++
		if i < 0 {
			break
		}
		s = s[:i]
	}
	lines = lines[:k]
	for i, j := 0, k-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return lines
}

// humanSize writes a byte count for people: 512 B, 1.2 KB, 3.4 MB.
func humanSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// humanDuration writes an elapsed time the way a status line shows it:
// 80ms, 1.4s, 12s, 1m05s, 1h02m.
func humanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// plural writes a count with its noun in the singular or the plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oneLine squeezes text onto a single line for a title: line breaks and
// runs of white space become single spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") && !strings.Contains(s, "  ") && utf8.ValidString(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
