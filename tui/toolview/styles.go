package toolview

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// Styles are the colours and texts a tool call is drawn with. The TUI builds
// them from its theme; DefaultStyles gives a dark set to start from.
//
// Only the colours and the text attributes (bold, italic, faint, underline,
// strikethrough, reverse, blink) of each style are used; layout properties
// such as padding or width are ignored. Like lipgloss v2 itself, toolview
// writes colours as they are and leaves turning them down to what the
// terminal supports to the writer.
type Styles struct {
	// Title is the call's title: the command, the path, the tool's name.
	Title lipgloss.Style
	// Output is text a tool printed or returned.
	Output lipgloss.Style
	// Muted is secondary information: sizes, counts, arguments, notes.
	Muted lipgloss.Style
	// Dim is the least important text: hints and elided lines.
	Dim lipgloss.Style
	// Error is error text and failed exit codes.
	Error lipgloss.Style
	// Success is the mark of a call that finished well.
	Success lipgloss.Style
	// Warning marks denied, cancelled and timed-out calls and calls
	// waiting for approval.
	Warning lipgloss.Style

	// DiffAdded, DiffRemoved and DiffContext colour the lines of a diff.
	DiffAdded, DiffRemoved, DiffContext lipgloss.Style
	// LineNumber colours the line numbers of diffs and file previews.
	LineNumber lipgloss.Style

	// PendingBg, SuccessBg and ErrorBg give, through their background
	// colour, the box's background while a call streams, waits or runs,
	// after it succeeded, and after it failed or was stopped. Only the
	// background colour is used; without one the box has none.
	PendingBg, SuccessBg, ErrorBg lipgloss.Style

	// Chroma is the style file previews are highlighted with.
	Chroma *chroma.Style
	// Formatter writes highlighted code as ANSI sequences: in practice
	// formatters.TTY16m (true colour) or formatters.TTY256. When it or
	// Chroma is nil, code is shown in the Output style.
	Formatter chroma.Formatter

	// ExpandHint follows the count of lines left out of a collapsed box,
	// naming the key that expands it, such as "ctrl+o to expand". Empty
	// means no hint.
	ExpandHint string
}

// DefaultStyles returns a dark style set after pi's dark theme, highlighting
// in true colour.
func DefaultStyles() Styles {
	fg := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(hex)) }
	bg := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Background(lipgloss.Color(hex)) }
	return Styles{
		Title:       fg("#e0e0e0").Bold(true),
		Output:      fg("#b0b0b0"),
		Muted:       fg("#808080"),
		Dim:         fg("#666666"),
		Error:       fg("#cc6666"),
		Success:     fg("#b5bd68"),
		Warning:     fg("#ffff00"),
		DiffAdded:   fg("#b5bd68"),
		DiffRemoved: fg("#cc6666"),
		DiffContext: fg("#808080"),
		LineNumber:  fg("#666666"),
		PendingBg:   bg("#282832"),
		SuccessBg:   bg("#283228"),
		ErrorBg:     bg("#3c2828"),
		Chroma:      styles.Get("github-dark"),
		Formatter:   formatters.TTY16m,
		ExpandHint:  "ctrl+o to expand",
	}
}

// background returns the SGR sequence that sets st's background colour, or
// "" when st has none.
func background(st lipgloss.Style) string {
	c := st.GetBackground()
	if !hasColor(c) {
		return ""
	}
	return ansi.NewStyle().BackgroundColor(c).String()
}

// hasColor reports whether a colour from a lipgloss style is set.
func hasColor(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c != nil && !none
}
