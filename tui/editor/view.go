package editor

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// View draws the completion popup, if open, above the input rows. Every
// line is exactly Width cells wide; there is no border.
func (m Model) View() string {
	s := m.s
	if !s.viewOK {
		var sb strings.Builder
		sb.Grow((s.width + 16) * (s.popupHeight() + s.inputHeight()))
		s.popupView(&sb)
		s.inputView(&sb)
		s.view, s.viewOK = strings.TrimSuffix(sb.String(), "\n"), true
	}
	return s.view
}

// popupHeight is the number of popup rows View draws.
func (s *state) popupHeight() int {
	if !s.comp.open() {
		return 0
	}
	return min(len(s.comp.items), popupRows)
}

func (s *state) promptWidth() int { return runewidth.StringWidth(s.opts.Prompt) }

func (s *state) popupView(sb *strings.Builder) {
	c := &s.comp
	n := s.popupHeight()
	if n == 0 {
		return
	}
	indent := strings.Repeat(" ", s.promptWidth())
	avail := s.width - len(indent)
	nameWidth := 0
	if c.trig.kind == commandCompletion {
		for _, it := range c.items {
			nameWidth = max(nameWidth, ansi.StringWidth(it.text))
		}
		nameWidth = min(nameWidth, avail/2)
	}
	for i := c.top; i < c.top+n; i++ {
		it := c.items[i]
		name, desc := it.text, it.desc
		if c.trig.kind == fileCompletion {
			name = strings.TrimPrefix(name, "@")
		}
		nameStyle, descStyle := s.paint.popup, s.paint.description
		if i == c.sel {
			nameStyle, descStyle = s.paint.popupSelected, s.paint.popupSelected
		}
		sb.WriteString(indent)
		used := 0
		if c.trig.kind == commandCompletion {
			name = padTo(ansi.Truncate(name, nameWidth, "…"), nameWidth)
			nameStyle.paint(sb, name)
			used = nameWidth
			if rest := avail - used - 2; rest > 0 && desc != "" {
				desc = ansi.Truncate(oneLine(desc), rest, "…")
				nameStyle.paint(sb, "  ")
				descStyle.paint(sb, desc)
				used += 2 + ansi.StringWidth(desc)
			}
		} else {
			name = ansi.Truncate(name, avail, "…")
			nameStyle.paint(sb, name)
			used = ansi.StringWidth(name)
		}
		sb.WriteString(strings.Repeat(" ", max(avail-used, 0)))
		sb.WriteByte('\n')
	}
}

func (s *state) inputView(sb *strings.Builder) {
	if s.buf.empty() && s.opts.Placeholder != "" {
		s.placeholderView(sb)
		return
	}
	b := s.buf
	h := s.inputHeight()
	row := 0
	for li, l := range b.lines {
		st := b.rows(l)
		if row+len(st) <= s.top {
			row += len(st)
			continue
		}
		for k := range st {
			if row >= s.top+h {
				return
			}
			if row >= s.top {
				cursor := -1
				if li == b.row && k == segment(st, b.col) && s.drawsCursor() {
					cursor = b.col
				}
				s.rowView(sb, l, k, row == 0, cursor)
			}
			row++
		}
	}
}

func (s *state) drawsCursor() bool { return s.focused && !s.opts.RealCursor }

// rowView draws visual row k of l, with the cursor before rune cursor
// (-1 for none).
func (s *state) rowView(sb *strings.Builder, l *line, k int, first bool, cursor int) {
	s.writePrompt(sb, first)
	textWidth := s.width - s.promptWidth()
	from, to := s.buf.span(l, k)
	used, run := 0, from
	for i := from; i < to; i++ {
		r := l.runes[i]
		w := s.pastes.cellWidth(r)
		if i != cursor && !isMarker(r) && w <= textWidth {
			used += w
			continue
		}
		s.paint.text.paintRunes(sb, l.runes[run:i])
		run = i + 1
		st := s.paint.marker
		if i == cursor {
			st = s.paint.cursor
		} else if !isMarker(r) {
			st = s.paint.text
		}
		cell, cw := cellText(r, &s.pastes, w, textWidth)
		st.paint(sb, cell)
		used += cw
	}
	s.paint.text.paintRunes(sb, l.runes[run:to])
	if cursor == to {
		s.paint.cursor.paint(sb, " ")
		used++
	}
	writeSpaces(sb, textWidth-used)
	sb.WriteByte('\n')
}

// cellText is what a rune of width w looks like on screen in a row of
// maxWidth cells, and its width there: a marker's label (cut to fit), a
// tab's spaces, the rune itself, or "…" for a rune wider than the row.
func cellText(r rune, p *pastes, w, maxWidth int) (string, int) {
	switch {
	case isMarker(r):
		label := p.label(r)
		n := min(len(label), max(maxWidth, 1))
		return label[:n], n
	case w > maxWidth:
		return "…", 1
	case r == '\t':
		return spaces[:tabWidth], tabWidth
	}
	return string(r), w
}

// spaces is a run of blanks to slice from.
const spaces = "                                                                "

func writeSpaces(sb *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		sb.WriteString(spaces[:k])
		n -= k
	}
}

func (s *state) writePrompt(sb *strings.Builder, first bool) {
	if first {
		s.paint.prompt.paint(sb, s.opts.Prompt)
		return
	}
	sb.WriteString(strings.Repeat(" ", s.promptWidth()))
}

func (s *state) placeholderView(sb *strings.Builder) {
	s.writePrompt(sb, true)
	textWidth := s.width - s.promptWidth()
	text := ansi.Truncate(oneLine(s.opts.Placeholder), textWidth, "…")
	used := ansi.StringWidth(text)
	if s.drawsCursor() {
		first, rest := splitFirst(text)
		if first == "" {
			first, used = " ", 1
		}
		s.paint.placeholderCursor.paint(sb, first)
		text = rest
	}
	s.paint.placeholder.paint(sb, text)
	sb.WriteString(strings.Repeat(" ", max(textWidth-used, 0)))
	sb.WriteByte('\n')
}

func splitFirst(s string) (first, rest string) {
	for i := range s {
		if i > 0 {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// oneLine folds line breaks and tabs into spaces, for popup and placeholder
// text.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}

func padTo(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}
