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
	held     string          // the open block's lines drawn for good (see Pieces)
	open     string          // the rest of the open block as last rendered
	tail     string          // held and open joined, once asked for
	tailDone bool            // tail is held and open joined
	code     codeTail        // the open block when it is a fenced code block
	para     paraTail        // the open block when it is a long paragraph
	items    listTail        // the open block when it is a list
	fresh    bool            // held and open reflect text and r
	// stableEpoch and heldEpoch change whenever the rendered finished
	// blocks, or the held lines, start over instead of growing.
	stableEpoch, heldEpoch int
	heldKind               int    // which of code, para, list (1-3) held is from; 0: none
	view                   string // the last View
	joined                 bool   // view is stable and tail joined
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
	if s.heldKind == heldPara || s.heldKind == heldList {
		s.heldKind = 0 // the paragraph or list is drawn whole from now on
	}
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
	se, he := s.stableEpoch, s.heldEpoch
	*s = Stream{stableEpoch: se + 1, heldEpoch: he + 1}
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
	p := s.ViewPieces(r)
	if !s.tailDone {
		switch {
		case p.Held == "":
			s.tail = p.Open
		case p.Open == "":
			s.tail = p.Held
		default:
			s.tail = p.Held + "\n" + p.Open
		}
		s.tailDone = true
	}
	return p.Stable, s.tail
}

// Pieces is a Stream's view in three parts. The whole view is Stable, a
// blank line and the open block, which is Held and Open one under the other
// (a part that is empty is left out with its separator).
type Pieces struct {
	// Stable is the finished blocks, joined. While StableEpoch stays the
	// same it only grows, by a blank line and more blocks.
	Stable      string
	StableEpoch int
	// Held is the lines of the open block that are drawn for good: the
	// finished chunks of a long paragraph or of a fenced code block still
	// streaming. While HeldEpoch stays the same it only grows, by a line
	// break and more lines.
	Held      string
	HeldEpoch int
	// Open is the rest of the open block, rendered again on every view
	// after the text grew; its size is bounded by the chunk sizes, not by
	// the answer's length.
	Open string
}

// ViewPieces renders the text with r in the three parts of Pieces. A
// caller that keeps its own lines of Stable and Held, and adds only what
// they grew by, pays for each delta in proportion to the open chunk.
func (s *Stream) ViewPieces(r *Renderer) Pieces {
	if r == nil {
		s.tailDone = false
		return Pieces{Open: string(s.text), StableEpoch: s.stableEpoch, HeldEpoch: s.heldEpoch}
	}
	if r != s.r {
		s.r, s.rendered, s.fresh, s.joined = r, 0, false, false
		s.stable.Reset()
		s.stableEpoch++
		s.heldEpoch++
	}
	if !s.fresh {
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
		held, open, kind := s.renderTail(r)
		if kind != s.heldKind || len(held) < len(s.held) {
			s.heldEpoch++
		}
		s.held, s.open, s.heldKind = held, open, kind
		s.fresh, s.tailDone = true, false
	}
	return Pieces{Stable: s.stable.String(), StableEpoch: s.stableEpoch, Held: s.held, HeldEpoch: s.heldEpoch, Open: s.open}
}

// Where held lines come from.
const (
	heldCode = 1
	heldPara = 2
	heldList = 3
)

// renderTail renders the block still streaming, in the held and open parts
// of Pieces. An open fenced code block that the block starts with goes to
// codeTail, which renders its finished lines in chunks once each, and a
// long plain paragraph to paraTail, which does the same with chunks of
// words.
func (s *Stream) renderTail(r *Renderer) (held, open string, kind int) {
	sp := &s.split
	if sp.fence.n == 0 || sp.open != sp.fenceStart {
		start := sp.tailStart()
		if src := s.text[start:]; !s.done && len(src) > 2*paraChunkBytes && !sp.list && sp.fence.n == 0 && plainParagraph(src) {
			if s.para.start != start || s.para.next < start {
				s.para.reset(start)
				s.heldEpoch++
			}
			s.para.grow(s.text, len(s.text))
			held, open = s.para.view(r, s.text, len(s.text))
			return held, open, heldPara
		}
		if !s.done && sp.list && sp.fence.n == 0 {
			if !s.items.began || s.items.start != start || s.items.next < start {
				s.items.reset(start)
				s.heldEpoch++
			}
			s.items.grow(s.text, sp.pos)
			if s.items.ok && len(s.items.sealed) > 0 {
				held, open = s.items.view(r, s.text, s.closingFence())
				return held, open, heldList
			}
		}
		return "", r.render(s.tailSource()), 0
	}
	if s.code.fenceStart != sp.fenceStart || s.code.body != sp.fenceBody {
		s.code.reset(sp.fenceStart, sp.fenceBody)
		s.heldEpoch++
	}
	s.code.grow(s.text, sp.pos)
	held, open = s.code.view(r, s.text, s.closingFence())
	return held, open, heldCode
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
