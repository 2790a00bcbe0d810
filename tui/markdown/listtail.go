package markdown

import (
	"bytes"
	"strings"
)

// listChunkItems is how many top-level items of a streaming list are
// rendered together once the item after them has started.
const listChunkItems = 4

// listTail renders a list that is still streaming at the end of a Stream.
// A list is one block, and rendering it whole on every view costs time in
// proportion to its length (a hundred items took glamour 15 ms), so once
// an item is followed by the next, items are sealed in chunks of
// listChunkItems, each rendered once as a list of its own, and only the
// chunk still growing is rendered on every view.
//
// That gives the lines of a whole render only for tight lists whose items
// all start at the left margin with the same bullet, or with numbers that
// count up from the first (glamour numbers a list from its first number),
// and whose other lines are indented (an item's continuation, a nested
// list). Anything else (a blank line, a line at the margin that is not an
// item, a fence) stops the cutting, and the list is rendered whole from
// then on, as before.
type listTail struct {
	began    bool            // reset was called: the fields describe a list
	start    int             // start of the list block; identifies it
	next     int             // start of the first item not in a finished chunk
	scan     int             // start of the first line not yet looked at
	items    int             // top-level items from next to scan
	count    int             // top-level items from start to scan
	marker   byte            // the bullet, or the '.' or ')' after a number
	indent   int             // where the current item's content starts
	first    int             // an ordered list's first number
	ok       bool            // the list can still be cut into chunks
	sealed   []int           // end of each finished chunk (start of the next)
	r        *Renderer       // the renderer out was rendered with
	rendered int             // finished chunks in out
	out      strings.Builder // finished chunks rendered, one line apart
}

// reset points p at the list block starting at start.
func (p *listTail) reset(start int) {
	*p = listTail{began: true, start: start, next: start, scan: start, ok: true}
}

// grow reads the complete lines of text[:complete] not yet read, sealing a
// chunk before an item when the chunk has listChunkItems items, and stops
// the cutting at a line that does not fit (see listTail).
func (p *listTail) grow(text []byte, complete int) {
	for p.ok && p.scan < complete {
		nl := bytes.IndexByte(text[p.scan:complete], '\n')
		if nl < 0 {
			return
		}
		l := text[p.scan : p.scan+nl]
		switch {
		case isBlank(l) || bytes.IndexByte(l, '\r') >= 0 || bytes.Contains(l, []byte("```")) || bytes.Contains(l, []byte("~~~")):
			p.ok = false
			return
		case l[0] == ' ' || l[0] == '\t':
			// The item's content goes on: indented at least as far as
			// its first line's content, with spaces.
			n := 0
			for n < len(l) && l[n] == ' ' {
				n++
			}
			if p.count == 0 || n < p.indent || n >= p.indent+4 || !itemText(l[n:]) {
				p.ok = false
				return
			}
		default:
			marker, num, indent, ok := topItem(l)
			if !ok || !inlineStart(l[indent:]) || (p.count > 0 && (marker != p.marker || (num >= 0 && num != p.first+p.count))) {
				p.ok = false
				return
			}
			if p.count == 0 {
				p.marker, p.first = marker, num
			}
			if p.items >= listChunkItems {
				p.sealed = append(p.sealed, p.scan)
				p.next, p.items = p.scan, 0
			}
			p.items++
			p.count++
			p.indent = indent
		}
		p.scan += nl + 1
	}
}

// topItem reads a list item's marker at the very start of l: the bullet
// and num -1, or the '.' or ')' after a number and the number; indent is
// where its content starts, one space after the marker. ok is false for
// anything else: no content on the line, more than one space before it, a
// thematic break ("- - -").
func topItem(l []byte) (marker byte, num, indent int, ok bool) {
	switch c := l[0]; {
	case c == '-' || c == '+' || c == '*':
		marker, num, indent = c, -1, 2
		if isBreak(l) {
			return 0, 0, 0, false
		}
	case c >= '0' && c <= '9':
		i := 0
		for i < len(l) && i < 9 && l[i] >= '0' && l[i] <= '9' {
			num = num*10 + int(l[i]-'0')
			i++
		}
		if i >= len(l) || (l[i] != '.' && l[i] != ')') {
			return 0, 0, 0, false
		}
		marker, indent = l[i], i+2
	default:
		return 0, 0, 0, false
	}
	if indent >= len(l) || l[indent-1] != ' ' || l[indent] == ' ' || l[indent] == '\t' {
		return 0, 0, 0, false
	}
	return marker, num, indent, true
}

// itemText reports whether c, an indented line of an item without its
// indentation, is text of the item or an item of a nested list whose text
// starts as inline text does.
func itemText(c []byte) bool {
	if _, _, indent, ok := topItem(c); ok {
		return inlineStart(c[indent:])
	}
	return inlineStart(c)
}

// inlineStart reports whether c starts with what can only be inline text:
// a letter, a digit that starts no list item, or emphasis, code, a link or
// a quotation mark; not a heading, a quote, HTML, a table, a nested list
// or a break.
func inlineStart(c []byte) bool {
	if len(c) == 0 {
		return false
	}
	switch ch := c[0]; {
	case isLetter(ch), ch == '`', ch == '[', ch == '"', ch == '\'', ch == '(':
		return true
	case ch >= '0' && ch <= '9':
		_, _, _, item := topItem(c)
		return !item
	case ch == '*' || ch == '_':
		return len(c) > 1 && c[1] != ' ' && c[1] != '\t' && !isBreak(c)
	}
	return false
}

// isBreak reports whether l is made of one of - * _ and spaces only, as a
// thematic break is.
func isBreak(l []byte) bool {
	n := 0
	for _, c := range l {
		switch {
		case c == l[0]:
			n++
		case c == ' ' || c == '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// view renders the list: held, the finished chunks, rendered once with r
// (it only grows until the next reset), and open, the rest, with closing
// added.
func (p *listTail) view(r *Renderer, text []byte, closing string) (held, open string) {
	if r != p.r {
		p.r, p.rendered = r, 0
		p.out.Reset()
	}
	start := p.start
	if p.rendered > 0 {
		start = p.sealed[p.rendered-1]
	}
	for ; p.rendered < len(p.sealed); p.rendered++ {
		end := p.sealed[p.rendered]
		out := r.render(text[start:end])
		if p.out.Len() > 0 && out != "" {
			p.out.WriteByte('\n')
		}
		p.out.WriteString(out)
		start = end
	}
	return p.out.String(), r.render(withClosing(text[p.next:], closing))
}
