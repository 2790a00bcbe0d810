package markdown

import "strings"

// blockSeparator goes between blocks rendered apart; it is the one blank
// line glamour puts between top-level blocks when it renders them together.
const blockSeparator = "\n\n"

// Stream renders one markdown answer while it streams in. Append (or Set)
// the text as it arrives and call View to show it: blocks that are finished
// are rendered once per Renderer and kept, and only the open block at the
// end is rendered again. The zero value is an empty Stream ready to use. A
// Stream is not safe for concurrent use and must not be copied once used.
type Stream struct {
	text  []byte
	split splitter

	r        *Renderer       // the renderer stable was rendered with
	rendered int             // how many finished blocks stable holds
	stable   strings.Builder // rendered finished blocks, joined
	tail     string          // the open block as last rendered
	code     codeTail        // the open block when it is a fenced code block
	para     paraTail        // the open block when it is a long paragraph
	fresh    bool            // tail reflects text and r
	view     string          // the last View
	joined   bool            // view is stable and tail joined
	// done is set once the text is complete: the open block is then
	// rendered whole, with no chunk boundaries in a long paragraph.
	done bool
	// lastRead is set when Finish had the splitter read a last line with
	// no newline as complete; more text must then be split again.
	lastRead bool

	stableRenders int // finished blocks rendered, for tests
}

// Append adds delta to the end of the text.
func (s *Stream) Append(delta string) {
	if delta == "" {
		return
	}
	if s.lastRead {
		// Finish took the last line as complete, and it was not.
		text := string(s.text) + delta
		s.Reset()
		s.Append(text)
		return
	}
	s.text = append(s.text, delta...)
	s.split.scan(s.text)
	s.fresh, s.joined, s.done = false, false, false
}

// Finish marks the text complete: its last line counts as complete, and a
// long paragraph at its end is rendered as one paragraph rather than in the
// chunks that keep streaming cheap. Appending more text reopens the Stream
// (splitting its text again).
func (s *Stream) Finish() {
	if s.done {
		return
	}
	s.done = true
	s.fresh, s.joined = false, false
	s.para = paraTail{}
	if s.split.pos < len(s.text) {
		// The last line has no newline, but nothing follows it: split it
		// too, so that a block before it (a table) ends where it ends.
		s.split.line(s.text[s.split.pos:], s.split.pos)
		s.split.pos = len(s.text)
		s.lastRead = true
	}
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
// the whole text, apart from the limits the package documentation lists.
// When the text grew since the last call, View copies the finished part
// once to join it to the open block; ViewParts avoids that copy.
func (s *Stream) View(r *Renderer) string {
	if s.joined && s.fresh && r == s.r && r != nil {
		return s.view
	}
	stable, tail := s.ViewParts(r)
	switch {
	case stable == "":
		s.view = tail
	case tail == "":
		s.view = stable
	default:
		s.view = stable + blockSeparator + tail
	}
	s.joined = r != nil
	return s.view
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
		s.r, s.rendered, s.fresh, s.joined = r, 0, false, false
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
	s.tail = s.renderTail(r)
	s.fresh = true
	return s.stable.String(), s.tail
}

// renderTail renders the block still streaming. An open fenced code block
// that the block starts with goes to codeTail, which renders its finished
// lines in chunks once each.
func (s *Stream) renderTail(r *Renderer) string {
	sp := &s.split
	if sp.fence.n == 0 || sp.open != sp.fenceStart {
		start := sp.tailStart()
		if src := s.text[start:]; !s.done && len(src) > 2*paraChunkBytes && !sp.list && sp.fence.n == 0 && plainParagraph(src) {
			if s.para.start != start || s.para.next < start {
				s.para.reset(start)
			}
			s.para.grow(s.text, len(s.text))
			return s.para.view(r, s.text, len(s.text))
		}
		return r.render(s.tailSource())
	}
	if s.code.fenceStart != sp.fenceStart || s.code.body != sp.fenceBody {
		s.code.reset(sp.fenceStart, sp.fenceBody)
	}
	s.code.grow(s.text, sp.pos)
	return s.code.view(r, s.text, s.closingFence())
}

// tailSource returns the markdown of the block still streaming, with its
// open fenced code block, if any, closed.
func (s *Stream) tailSource() []byte {
	return withClosing(s.text[s.split.tailStart():], s.closingFence())
}

// closingFence returns the line that closes the fenced code block still
// open at the end of the text, so that it shows as code while it streams,
// or "" if there is none or the last, incomplete line already closes it.
func (s *Stream) closingFence() string {
	f := s.split.fence
	if f.n == 0 || closesFence(s.text[s.split.pos:], f, s.split.list) {
		return ""
	}
	return strings.Repeat(" ", f.indent) + strings.Repeat(string(f.char), f.n) + "\n"
}

// withClosing returns src followed by the closing fence line closing, on a
// line of its own.
func withClosing(src []byte, closing string) []byte {
	if closing == "" {
		return src
	}
	b := make([]byte, 0, len(src)+len(closing)+1)
	b = append(b, src...)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b = append(b, '\n')
	}
	return append(b, closing...)
}
