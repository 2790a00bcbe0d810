package markdown

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// paraChunkBytes is the size past which a streaming paragraph is cut into
// chunks that are rendered once each.
const paraChunkBytes = 256

// paraTail renders a long plain paragraph that is still streaming at the
// end of a Stream. glamour renders a paragraph in time proportional to its
// length, and a model can write thousands of words without a blank line,
// so the paragraph is cut, at spaces where no inline markup is left open,
// into chunks of about paraChunkBytes; each finished chunk is rendered once
// as a paragraph of its own and only the last chunk on every view. The
// chunks show one under the other; where a chunk's last line can be
// carried into the next chunk the lines break as in a whole render, and
// otherwise (markup at the cut) the paragraph has a short line there
// until it is finished or the Stream is (Stream.Finish); from then on it
// is rendered whole.
type paraTail struct {
	start    int             // start of the paragraph; identifies it
	next     int             // start of the chunk still growing
	r        *Renderer       // the renderer out was rendered with
	out      strings.Builder // finished chunks rendered, one line apart
	sealed   []int           // end of each finished chunk
	rendered int             // finished chunks in out
	// carry is where the text not yet in out starts: the end of the last
	// rendered chunk, or the start of that chunk's last drawn line when
	// the line could be carried into the next chunk (see view).
	carry int
}

// plainParagraph reports whether src, a block that is still open, is a
// paragraph whose text can be cut without changing what it is: its first
// line starts no other kind of block and no later line could turn it into
// a heading or table.
func plainParagraph(src []byte) bool {
	first := src
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		first = src[:nl]
	}
	n, rest := indentation(first)
	if n >= 4 || len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case '#', '>', '-', '*', '+', '|', '<', '`', '~', '=', '_':
		return false
	}
	if rest[0] >= '0' && rest[0] <= '9' {
		return false
	}
	for l := range bytes.SplitSeq(src, []byte("\n")) {
		_, t := indentation(l)
		if len(t) > 0 && (t[0] == '=' || t[0] == '-' || t[0] == '|') {
			return false
		}
	}
	return true
}

// reset points p at the paragraph starting at start.
func (p *paraTail) reset(start int) { *p = paraTail{start: start, next: start, carry: start} }

// grow seals chunks of text[p.next:end] while more than a chunk's worth is
// left after the cut.
func (p *paraTail) grow(text []byte, end int) {
	for end-p.next > 2*paraChunkBytes {
		cut := safeCut(text[p.next:end-paraChunkBytes], paraChunkBytes)
		if cut <= 0 {
			return
		}
		p.next += cut
		p.sealed = append(p.sealed, p.next)
	}
}

// safeCut returns a cut after a space, at least min bytes into chunk, such
// that chunk[:cut] leaves no inline markup open; 0 if there is none.
func safeCut(chunk []byte, min int) int {
	// Delimiters are counted by runs: ** opens once and closes once.
	var ticks, stars, unders, brackets int
	cut := 0
	for i, c := range chunk {
		if i > 0 && chunk[i-1] == c && (c == '`' || c == '*' || c == '_') {
			continue
		}
		switch c {
		case '`':
			ticks++
		case '*':
			stars++
		case '_':
			unders++
		case '[':
			brackets++
		case ']':
			brackets--
		case '<', '\\', '~':
			// Autolinks, HTML, escapes and strikethrough: cut only before them.
			if cut >= min {
				return cut
			}
			return 0
		case ' ', '\n':
			if i+1 >= min && ticks%2 == 0 && stars%2 == 0 && unders%2 == 0 && brackets == 0 {
				cut = i + 1
				return cut
			}
		}
	}
	return 0
}

// view renders the paragraph in text from p.start to end: the finished
// chunks from the cache and the growing chunk now. A finished chunk's last
// line is short where the chunk was cut, so when its words can be found at
// the end of the chunk's text, that line is left out and its text is
// rendered again with the next chunk: the lines then break where a render
// of the whole paragraph breaks them.
//
// held is the finished chunks, which only grow until the next reset, and
// open the growing chunk.
func (p *paraTail) view(r *Renderer, text []byte, end int) (held, open string) {
	if r != p.r {
		p.r, p.rendered, p.carry = r, 0, p.start
		p.out.Reset()
	}
	for ; p.rendered < len(p.sealed); p.rendered++ {
		to := p.sealed[p.rendered]
		out := r.render(bytes.TrimSpace(text[p.carry:to]))
		next := to
		if i := strings.LastIndexByte(out, '\n'); i >= 0 {
			if at, ok := lineSource(text, p.carry, to, out[i+1:]); ok {
				out, next = out[:i], at
			}
		}
		if out != "" {
			if p.out.Len() > 0 {
				p.out.WriteByte('\n')
			}
			p.out.WriteString(out)
		}
		p.carry = next
	}
	return p.out.String(), r.render(bytes.TrimSpace(text[p.carry:end]))
}

// lineSource finds where, in text[from:to], the source of line (the last
// drawn line of that text) starts: as many words back from to as the line
// shows. ok is false unless those words are exactly the line's words, as
// when markup, a hyphen break or a cut word makes them differ.
func lineSource(text []byte, from, to int, line string) (int, bool) {
	words := strings.Fields(ansi.Strip(line))
	if len(words) == 0 {
		return 0, false
	}
	i := to
	for range words {
		for i > from && isSpaceByte(text[i-1]) {
			i--
		}
		for i > from && !isSpaceByte(text[i-1]) {
			i--
		}
	}
	if i <= from {
		return 0, false
	}
	src := strings.Fields(string(text[i:to]))
	if len(src) != len(words) {
		return 0, false
	}
	for k := range src {
		if src[k] != words[k] {
			return 0, false
		}
	}
	return i, true
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
