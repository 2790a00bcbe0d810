package toolview

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// paint is the SGR sequence that starts a style's colours and attributes,
// or "" for a style with none. Painting with it writes what lipgloss would
// for text that needs no layout, without lipgloss's work per call, which
// dominated the cost of long boxes.
type paint string

// paintOf reads the colours and text attributes of a lipgloss style, the
// only properties of Styles that toolview uses.
func paintOf(st lipgloss.Style) paint {
	var s ansi.Style
	if st.GetBold() {
		s = s.Bold()
	}
	if st.GetItalic() {
		s = s.Italic(true)
	}
	if st.GetUnderline() {
		s = s.Underline(true)
	}
	if st.GetReverse() {
		s = s.Reverse(true)
	}
	if st.GetBlink() {
		s = s.Blink(true)
	}
	if st.GetFaint() {
		s = s.Faint()
	}
	if c := st.GetForeground(); hasColor(c) {
		s = s.ForegroundColor(c)
	}
	if c := st.GetBackground(); hasColor(c) {
		s = s.BackgroundColor(c)
	}
	if st.GetStrikethrough() {
		s = s.Strikethrough(true)
	}
	if len(s) == 0 {
		return ""
	}
	return paint(s.String())
}

// render paints text, resetting every attribute after it.
func (p paint) render(s string) string {
	if p == "" || s == "" {
		return s
	}
	return string(p) + s + ansi.ResetStyle
}

// palette is Styles read once for one Render.
type palette struct {
	Title, Output, Muted, Dim, Error, Success, Warning paint
	DiffAdded, DiffRemoved, DiffContext, LineNumber    paint
	ExpandHint                                         string
}

func newPalette(st Styles) palette {
	return palette{
		Title: paintOf(st.Title), Output: paintOf(st.Output), Muted: paintOf(st.Muted), Dim: paintOf(st.Dim),
		Error: paintOf(st.Error), Success: paintOf(st.Success), Warning: paintOf(st.Warning),
		DiffAdded: paintOf(st.DiffAdded), DiffRemoved: paintOf(st.DiffRemoved), DiffContext: paintOf(st.DiffContext),
		LineNumber: paintOf(st.LineNumber), ExpandHint: st.ExpandHint,
	}
}
