package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// RenderPlain wraps text that is not markdown, such as a thinking block, to
// width columns and paints every line with style. Wrapping breaks at spaces
// and hyphens, splits words longer than a line, and measures cells the way a
// terminal does, skipping escape sequences. A width of zero or less leaves
// lines as long as they are. Tabs become four spaces and trailing spaces are
// dropped; empty lines stay empty.
func RenderPlain(text string, width int, style lipgloss.Style) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\t", "    ")
	switch {
	case width <= 0:
	case strings.IndexByte(text, 0x1b) >= 0:
		// Styles in the text are carried over line breaks.
		text = lipgloss.Wrap(text, width, "")
	default:
		text = ansi.Wrap(text, width, "")
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		if l != "" {
			l = style.Render(l)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}
