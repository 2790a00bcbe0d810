package toolview

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// ellipsis ends text cut to fit and stands for lines left out.
const ellipsis = "…"

// line is one content line of a box, styled, and its width in cells.
type line struct {
	s     string
	width int
}

// box collects the content lines of one call, each fitted to the width
// inside the box's padding.
type box struct {
	inner    int
	p        *palette
	expanded bool
	lines    []line
}

// add appends a styled line whose width in cells is known and fits.
func (b *box) add(s string, width int) {
	b.lines = append(b.lines, line{s, width})
}

// text appends foreign text as one line in style: cleaned (see cleanLine),
// cut to fit, then styled, so the ellipsis of a cut line is styled too. An
// expanded box wraps the line instead: expanding is how a person reads
// what a collapsed box cut.
func (b *box) text(s string, style paint) {
	s = cleanLine(s)
	if b.expanded && b.inner >= 4 && cells(s) > b.inner {
		b.wrap(s, style, 0)
		return
	}
	t, w := fitPlain(s, b.inner)
	b.add(style.render(t), w)
}

// wrap appends clean plain text in style over as many lines as it takes,
// breaking between words where it can and inside a word wider than the
// box; lines after the first are indented by indent cells, so a
// continuation reads as one.
func (b *box) wrap(s string, style paint, indent int) {
	indent = min(indent, b.inner/2)
	lead, width := "", b.inner
	for s != "" {
		part, rest := cutLine(s, width)
		b.add(lead+style.render(part), len(lead)+cells(part))
		s = rest
		lead, width = strings.Repeat(" ", indent), b.inner-indent
	}
}

// Wrap breaks one line of plain text into lines of at most width cells,
// between words where it can (the space goes with neither line) and
// inside a word wider than width, never at a hyphen: a command or a path
// wrapped this way reads back exactly as written. Empty text is one empty
// line.
func Wrap(s string, width int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for s != "" {
		var line string
		line, s = cutLine(s, max(width, 1))
		out = append(out, line)
	}
	return out
}

// cutLine splits clean plain text after at most width cells: at the last
// space that fits when there is one, else inside the word. The space it
// breaks at goes with neither part.
func cutLine(s string, width int) (line, rest string) {
	if cells(s) <= width {
		return s, ""
	}
	head := ansi.Truncate(s, max(width, 1), "")
	if head == "" {
		// One character wider than the box: it goes alone.
		_, size := utf8.DecodeRuneInString(s)
		return s[:size], s[size:]
	}
	if s[len(head)] == ' ' {
		return head, s[len(head)+1:]
	}
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		return head[:i], s[i+1:]
	}
	return head, s[len(head):]
}

// texts appends each of lines as by text.
func (b *box) texts(lines []string, style paint) {
	for _, l := range lines {
		b.text(l, style)
	}
}

// wrapped appends foreign text in style with its lines word-wrapped to the
// box's width, at most limit lines of it, and how many more there are.
// Errors are wrapped rather than cut, so all of a short one can be read.
func (b *box) wrapped(text string, style paint, limit int) {
	source := headLines(text, limit)
	shown, more := 0, countLines(text)-len(source)
	for _, l := range source {
		for _, w := range strings.Split(ansi.Wrap(cleanLine(l), b.inner, ""), "\n") {
			if shown == limit {
				more++
				continue
			}
			b.text(w, style)
			shown++
		}
	}
	b.elided(more, false)
}

// elided appends the note that n lines (of output, of a diff, ...) are not
// shown, after the shown ones or, when earlier is set, before them. While
// the box is collapsed it names the key that expands it.
func (b *box) elided(n int, earlier bool) {
	if n <= 0 {
		return
	}
	word := " more "
	if earlier {
		word = " earlier "
	}
	s := ellipsis + " " + strconv.Itoa(n) + word + "line"
	if n != 1 {
		s += "s"
	}
	if !b.expanded && b.p.ExpandHint != "" {
		s += " · " + b.p.ExpandHint
	}
	b.text(s, b.p.Dim)
}

// limit returns how many lines to show of something that shows collapsed
// lines when collapsed and at most expandedLimit when expanded.
func (b *box) limit(collapsed int) int {
	if b.expanded {
		return expandedLimit
	}
	return collapsed
}

// render draws the box: the header line and the content lines, every line
// padded to width and laid on the background bg (an SGR sequence, or ""
// for none). It has no blank lines of its own above or below: the
// transcript puts one blank line between items, so calls in a row stay
// one line apart.
func (b *box) render(header string, width int, bg string) string {
	pad := boxPadding(width)
	var out strings.Builder
	size := 0
	for _, l := range b.lines {
		size += len(l.s)
	}
	out.Grow(size + (len(b.lines)+4)*(width+len(bg)+8))
	put := func(s string, w int) {
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		if bg != "" {
			out.WriteString(bg)
		}
		writeSpaces(&out, pad)
		if bg != "" && strings.IndexByte(s, 0x1b) >= 0 {
			// Styled text resets every attribute where it ends; put the
			// background back each time.
			s = strings.ReplaceAll(s, "\x1b[m", "\x1b[m"+bg)
			s = strings.ReplaceAll(s, "\x1b[0m", "\x1b[0m"+bg)
		}
		out.WriteString(s)
		writeSpaces(&out, b.inner-w+pad)
		if bg != "" {
			out.WriteString(ansi.ResetStyle)
		}
	}
	put(header, ansi.StringWidth(header))
	for _, l := range b.lines {
		put(l.s, l.width)
	}
	return out.String()
}

// boxPadding is the blank space left and right of the content.
func boxPadding(width int) int {
	if width < 8 {
		return 0
	}
	return 1
}

// cells is the width of plain text (no escape sequences) in cells.
func cells(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// fitPlain cuts plain text to at most width cells, ending it with an
// ellipsis when something was cut, and returns it with its width.
func fitPlain(s string, width int) (string, int) {
	if w := cells(s); w <= width {
		return s, w
	}
	t := ansi.Truncate(s, width, ellipsis)
	return t, cells(t)
}

// fit cuts a styled line to at most width cells, ending it with an
// ellipsis when something was cut.
func fit(s string, width int) string {
	// A line has at least as many bytes as cells.
	if len(s) <= width || ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, ellipsis)
}

func writeSpaces(b *strings.Builder, n int) {
	const spaces = "                                                                "
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}
