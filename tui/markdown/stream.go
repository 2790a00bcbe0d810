package markdown

import (
	"bytes"
	"strings"
)

// blockSeparator goes between blocks rendered apart; it is the one blank
// line glamour puts between top-level blocks when it renders them together.
const blockSeparator = "\n\n"

// Stream renders one markdown answer while it streams in. Append (or Set)
// the text as it arrives and call View to show it: blocks that are finished
// are rendered once per Renderer and kept, and only the open block at the
// end is rendered again. The zero value is an empty Stream ready to use; a
// Stream is not safe for concurrent use.
type Stream struct {
	text  []byte
	split splitter

	r        *Renderer       // the renderer stable was rendered with
	rendered int             // how many finished blocks stable holds
	stable   strings.Builder // rendered finished blocks, joined
	tail     string          // the open block as last rendered
	fresh    bool            // tail and view reflect text and r

	stableRenders int // finished blocks rendered, for tests
}

// Append adds delta to the end of the text.
func (s *Stream) Append(delta string) {
	if delta == "" {
		return
	}
	s.text = append(s.text, delta...)
	s.split.scan(s.text)
	s.fresh = false
}

// Set replaces the text. When text extends the current text, only the new
// part is taken in, as with Append; otherwise the Stream starts over.
func (s *Stream) Set(text string) {
	if len(text) >= len(s.text) && text[:len(s.text)] == string(s.text) {
		s.Append(text[len(s.text):])
		return
	}
	s.Reset()
	s.Append(text)
}

// Reset empties the Stream.
func (s *Stream) Reset() {
	*s = Stream{}
}

// Text returns the markdown taken in so far.
func (s *Stream) Text() string { return string(s.text) }

// Len returns the length in bytes of the markdown taken in so far.
func (s *Stream) Len() int { return len(s.text) }

// View renders the text with r. Its result is what r.Render would give for
// the whole text, apart from the limits the package documentation lists. It
// copies the finished part once per call; ViewParts avoids that copy.
func (s *Stream) View(r *Renderer) string {
	stable, tail := s.ViewParts(r)
	switch {
	case stable == "":
		return tail
	case tail == "":
		return stable
	}
	return stable + blockSeparator + tail
}

// ViewParts renders the text with r in two parts: the finished blocks and
// the open block at the end. View joins them with a blank line. The first
// part only grows as the text grows and costs nothing to return again, so a
// caller that keeps its own lines of it pays only for the open block.
func (s *Stream) ViewParts(r *Renderer) (stable, tail string) {
	if r == nil {
		return "", string(s.text)
	}
	if r != s.r {
		s.r, s.rendered, s.fresh = r, 0, false
		s.stable.Reset()
	}
	if s.fresh {
		return s.stable.String(), s.tail
	}
	for ; s.rendered < len(s.split.closed); s.rendered++ {
		b := s.split.closed[s.rendered]
		out := r.render(s.text[b.start:b.end])
		s.stableRenders++
		if out == "" {
			continue
		}
		if s.stable.Len() > 0 {
			s.stable.WriteString(blockSeparator)
		}
		s.stable.WriteString(out)
	}
	s.tail = r.render(s.openBlock())
	s.fresh = true
	return s.stable.String(), s.tail
}

// openBlock returns the markdown of the block still streaming. A fenced
// code block that has not been closed yet is closed here, so it shows as
// code while it streams.
func (s *Stream) openBlock() []byte {
	src := s.text[s.split.tailStart():]
	f := s.split.fence
	if f.n == 0 {
		return src
	}
	partial := s.text[s.split.pos:]
	if len(partial) > 0 && closesFence(partial, f, s.split.list) {
		return src
	}
	var b bytes.Buffer
	b.Grow(len(src) + f.indent + f.n + 2)
	b.Write(src)
	if len(partial) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat(" ", f.indent))
	b.WriteString(strings.Repeat(string(f.char), f.n))
	b.WriteByte('\n')
	return b.Bytes()
}
