package tui

import (
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/markdown"
)

// answerPrefix identifies what the cached lines of a streaming answer were
// drawn from: everything but the open markdown block at its end.
type answerPrefix struct {
	md          *markdown.Renderer
	gen         int
	blocks      int // content blocks in the message
	headBytes   int // bytes of the blocks before the streaming one
	stableEpoch int // the markdown stream's epoch of its finished blocks
	stableLen   int // bytes of the streaming block's finished part, drawn
}

// heldKey identifies the held lines of the open block that body holds.
type heldKey struct{ epoch, n int }

// answerLines are the drawn lines a streaming answer keeps between frames.
// body is the lines before the open block (the head blocks, then the
// streaming block's finished blocks: nStable lines), then the open block's
// held lines, if any, after a blank line; the open block's other lines are
// added after body on each frame, in body's spare capacity.
type answerLines struct {
	body    []string
	nStable int
	key     answerPrefix
	held    heldKey
}

// lines implements linesItem. While the answer's last block is markdown
// text, the lines of everything before its open block, and the open block's
// held lines (see markdown.Pieces), are kept and grown, so a frame costs the
// open chunk's size and the lines it adds, not the answer's size.
func (a *assistantItem) lines(rc *renderContext) []string {
	c := a.msg.Content
	last := len(c) - 1
	if last < 0 || c[last].Type != core.ContentText || strings.TrimSpace(c[last].Text) == "" ||
		(a.msg.StopReason == core.StopError && a.msg.ErrorMessage != "") || a.msg.StopReason == core.StopAborted || a.scripted() {
		a.drawn = answerLines{}
		return append(strings.Split(a.render(rc), "\n"), "")
	}
	d := &a.drawn
	p := a.stream(last, c[last].Text).ViewPieces(rc.md)
	key := answerPrefix{md: rc.md, gen: rc.gen, blocks: len(c), headBytes: headBytes(c[:last]), stableEpoch: p.StableEpoch, stableLen: len(p.Stable)}
	same := d.key
	same.stableLen = key.stableLen
	switch {
	case key == d.key:
	case same == key && d.key.stableLen > 0 && key.stableLen > d.key.stableLen && strings.HasPrefix(p.Stable[d.key.stableLen:], "\n"):
		// Only finished blocks were added: their lines join the prefix.
		d.body = d.body[:d.nStable]
		for _, l := range strings.Split(p.Stable[d.key.stableLen:], "\n")[1:] {
			d.body = append(d.body, indentLine(l))
		}
		d.nStable, d.key, d.held = len(d.body), key, heldKey{}
	default:
		d.body = d.body[:0]
		if head := a.renderHead(rc, c[:last]); head != "" {
			d.body = append(d.body, strings.Split(head, "\n")...)
			if rc.showThinking && c[last-1].Type == core.ContentThinking {
				d.body = append(d.body, indentLine("")) // a blank line after the thoughts, as indent draws it
			}
		}
		if p.Stable != "" {
			for _, l := range strings.Split(p.Stable, "\n") {
				d.body = append(d.body, indentLine(l))
			}
		}
		d.nStable, d.key, d.held = len(d.body), key, heldKey{}
	}
	// The held lines of the open block.
	switch {
	case p.Held == "":
		d.body, d.held = d.body[:d.nStable], heldKey{}
	case d.held.n > 0 && d.held.epoch == p.HeldEpoch && len(p.Held) >= d.held.n:
		if len(p.Held) > d.held.n {
			for _, l := range strings.Split(p.Held[d.held.n:], "\n")[1:] {
				d.body = append(d.body, indentLine(l))
			}
			d.held.n = len(p.Held)
		}
	default:
		d.body = d.body[:d.nStable]
		if p.Stable != "" {
			d.body = append(d.body, indentLine("")) // the blank line between blocks
		}
		for _, l := range strings.Split(p.Held, "\n") {
			d.body = append(d.body, indentLine(l))
		}
		d.held = heldKey{epoch: p.HeldEpoch, n: len(p.Held)}
	}
	// The rest of the open block, after body in its spare capacity: body
	// itself is not changed, so the next frame starts from it again.
	out := d.body
	if p.Open != "" {
		if p.Held == "" && p.Stable != "" {
			out = append(out, indentLine("")) // the blank line between blocks
		}
		for _, l := range strings.Split(p.Open, "\n") {
			out = append(out, indentLine(l))
		}
	}
	return append(out, "")
}

// stream returns the markdown stream of content block i, fed with text.
// A block that can grow no more (the answer ended, or a later block
// started) is finished, so it is drawn whole.
func (a *assistantItem) stream(i int, text string) *markdown.Stream {
	s := a.streams[i]
	if s == nil {
		s = &markdown.Stream{}
		a.streams[i] = s
	}
	if a.fed != (fedText{index: i, n: len(text)}) || s.Len() != len(text) {
		s.Set(text) // compares the texts, and starts over if they differ
	}
	if !a.streaming || i < len(a.msg.Content)-1 {
		s.Finish()
	}
	return s
}

// fedText says that the stream of content block index holds its first n
// bytes, taken in delta by delta.
type fedText struct{ index, n int }

// takeDelta appends a streamed text delta of block i to its markdown
// stream when the block's new text is the stream's text followed by delta
// (checked on the lengths and the delta's bytes only: the session's text
// only grows while it streams), so that drawing the block need not compare
// whole texts to find what is new. Anything else leaves it to stream,
// which compares; so does the message's end (update forgets what was fed),
// which would set right a text the provider rewrote in place.
func (a *assistantItem) takeDelta(i int, delta string) {
	a.fed = fedText{}
	s := a.streams[i]
	if s == nil || delta == "" || i >= len(a.msg.Content) || a.msg.Content[i].Type != core.ContentText {
		return
	}
	text := a.msg.Content[i].Text
	if len(text) != s.Len()+len(delta) || text[s.Len():] != delta {
		return
	}
	s.Append(delta)
	a.fed = fedText{index: i, n: len(text)}
}

// renderHead draws the blocks before the streaming one, indented.
func (a *assistantItem) renderHead(rc *renderContext, head []core.Content) string {
	saved, streaming := a.msg, a.streaming
	// The head's blocks are finished, whatever the answer's state.
	a.msg, a.streaming = &core.AssistantMessage{Content: head}, false
	out := a.render(rc)
	a.msg, a.streaming = saved, streaming
	return out
}

func headBytes(c []core.Content) int {
	n := 0
	for _, b := range c {
		n += len(b.Text) + len(b.Thinking) + len(b.Arguments) + 1
	}
	return n
}

// indentLine indents one line as indent does every line of a text.
func indentLine(l string) string { return "  " + l }
