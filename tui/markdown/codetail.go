package markdown

import (
	"bytes"
	"strings"
)

// codeChunkLines is how many lines of a streaming code block are rendered
// together once they are complete.
const codeChunkLines = 8

// codeTail renders a fenced code block that is still streaming at the end
// of a Stream. Rendering a long code block on every view would cost time in
// proportion to its length, so its complete lines are cut into chunks of
// about codeChunkLines lines; each chunk is rendered once, as a code block of
// its own with the same opening line, and only the chunk still growing is
// rendered on every view. Chunks start and end on non-blank lines, so no
// blank code line is lost between them.
//
// chroma reads each chunk on its own, so a token spanning a chunk boundary
// (a multi-line string or comment) may be coloured differently until the
// fence closes; from then on the block is rendered whole.
type codeTail struct {
	fenceStart int             // start of the fence's opening line; identifies the block
	body       int             // start of the first code line
	sealed     []int           // end of each finished chunk (start of the next)
	next       int             // start of the first line not in a finished chunk
	scan       int             // start of the first line not yet looked at
	lines      int             // lines from next to scan
	r          *Renderer       // the renderer out was rendered with
	rendered   int             // finished chunks in out
	out        strings.Builder // finished chunks rendered, one line apart
}

// reset points c at the fenced block whose opening line starts at
// fenceStart and whose code starts at body.
func (c *codeTail) reset(fenceStart, body int) {
	*c = codeTail{fenceStart: fenceStart, body: body, next: body, scan: body}
}

// grow seals the chunks that the complete lines of text[:complete] allow.
// A chunk ends after a non-blank line once it has codeChunkLines lines and
// the line after it is complete and not blank either.
func (c *codeTail) grow(text []byte, complete int) {
	for c.scan < complete {
		nl := bytes.IndexByte(text[c.scan:complete], '\n')
		if nl < 0 {
			return
		}
		lineEnd := c.scan + nl
		next := lineEnd + 1
		if c.lines >= codeChunkLines && !isBlank(text[c.scan:lineEnd]) && c.scan > c.next &&
			!isBlank(lastLine(text[c.next:c.scan])) {
			c.sealed = append(c.sealed, c.scan)
			c.next, c.lines = c.scan, 0
		}
		c.lines++
		c.scan = next
	}
}

// lastLine returns the last line of b, which ends with a newline.
func lastLine(b []byte) []byte {
	b = b[:len(b)-1]
	return b[bytes.LastIndexByte(b, '\n')+1:]
}

// view renders the code block: held, the finished chunks, rendered once
// with r (it only grows until the next reset), and open, the rest, closed
// by closing.
func (c *codeTail) view(r *Renderer, text []byte, closing string) (held, open string) {
	if r != c.r {
		c.r, c.rendered = r, 0
		c.out.Reset()
	}
	opening := text[c.fenceStart:c.body]
	start := c.body
	if c.rendered > 0 {
		start = c.sealed[c.rendered-1]
	}
	for ; c.rendered < len(c.sealed); c.rendered++ {
		end := c.sealed[c.rendered]
		out := r.render(codeSource(opening, text[start:end], closing))
		if c.out.Len() > 0 && out != "" {
			c.out.WriteByte('\n')
		}
		c.out.WriteString(out)
		start = end
	}
	return c.out.String(), r.render(codeSource(opening, text[c.next:], closing))
}

// codeSource puts code between an opening fence line and a closing one.
func codeSource(opening, code []byte, closing string) []byte {
	src := make([]byte, 0, len(opening)+len(code)+len(closing)+1)
	src = append(append(src, opening...), code...)
	if closing == "" {
		// The code ends with an incomplete closing fence of its own.
		return src
	}
	return withClosing(src, closing)
}
