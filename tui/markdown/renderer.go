package markdown

import (
	"charm.land/glamour/v2"
)

// minWidth is the narrowest width a Renderer wraps to; below it glamour's
// layout falls apart.
const minWidth = 10

// chromaFormatter writes 24-bit colour; Bubble Tea lowers it to what the
// terminal supports.
const chromaFormatter = "terminal16m"

// Renderer renders markdown for one palette and one width. Creating one
// builds a glamour renderer, which is costly, so keep a Renderer for as long
// as the palette and the width stay the same. A Renderer is not safe for
// concurrent use.
type Renderer struct {
	palette Palette
	width   int
	term    *glamour.TermRenderer // nil if glamour refused the options
	// narrow holds renderers for tables narrower than width, by their
	// width (see termFor).
	narrow map[int]*glamour.TermRenderer

	// renders and renderedBytes count calls to glamour and the markdown
	// they were given; tests use them to see what was re-rendered.
	renders       int
	renderedBytes int

	// plain is how the Renderer draws a line of plain words, once learnt
	// (see renderPlainParagraph).
	plain *plainLine
}

// New returns a Renderer that wraps text to width columns, coloured with p.
// A palette with its own chroma style registers that style, once, in
// chroma's global registry, so do not call New while another goroutine is
// rendering.
func New(p Palette, width int) *Renderer {
	if width < minWidth {
		width = minWidth
	}
	r := &Renderer{palette: p, width: width}
	term, err := glamour.NewTermRenderer(
		glamour.WithStyles(styleConfig(p)),
		glamour.WithWordWrap(width),
		glamour.WithChromaFormatter(chromaFormatterName(p)),
	)
	if err == nil {
		r.term = term
	}
	return r
}

// Width returns the width r wraps to.
func (r *Renderer) Width() int { return r.width }

// Palette returns the palette r colours with.
func (r *Renderer) Palette() Palette { return r.palette }

// Render renders a whole markdown text; a text with tables is rendered
// block by block so that each table is as wide as its cells. The result has no blank lines at its
// start or end, no trailing newline and no padding after the last visible
// cell of a line.
func (r *Renderer) Render(md string) string {
	if hasTable(md) {
		// Block by block, as a Stream draws it, so that each table is
		// sized to its own content (see termFor).
		var s Stream
		s.Set(md)
		s.Finish()
		return s.View(r)
	}
	return r.render([]byte(md))
}

// render renders src; if glamour fails, it shows src as it is, so the user
// still sees the answer.
func (r *Renderer) render(src []byte) string {
	r.renders++
	r.renderedBytes += len(src)
	if r.term != nil {
		if out, ok := r.renderPlainParagraph(src); ok {
			return out
		}
	}
	return r.renderGlamour(src)
}

// renderGlamour renders src with glamour.
func (r *Renderer) renderGlamour(src []byte) string {
	if r.term == nil {
		return trimBlankLines(string(src))
	}
	out, err := r.termFor(src).RenderBytes(prepare(src))
	if err != nil {
		return trimBlankLines(string(src))
	}
	return trimBlankLines(stripTrailing(string(out)))
}
