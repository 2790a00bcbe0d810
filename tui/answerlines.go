package tui

import (
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/markdown"
)

// answerPrefix identifies what the cached lines of a streaming answer were
// drawn from: everything but the open markdown block at its end.
type answerPrefix struct {
	md        *markdown.Renderer
	gen       int
	blocks    int // content blocks in the message
	headBytes int // bytes of the blocks before the streaming one
	stableLen int // bytes of the streaming block's finished part, drawn
}

// lines implements linesItem. While the answer's last block is markdown
// text, the lines of everything before its open block are kept and grown,
// so a delta costs the open block's size, not the answer's.
func (a *assistantItem) lines(rc *renderContext) []string {
	c := a.msg.Content
	last := len(c) - 1
	if last < 0 || c[last].Type != core.ContentText || strings.TrimSpace(c[last].Text) == "" ||
		(a.msg.StopReason == core.StopError && a.msg.ErrorMessage != "") || a.msg.StopReason == core.StopAborted || a.scripted() {
		a.prefix = nil
		a.key = answerPrefix{}
		return append(strings.Split(a.render(rc), "\n"), "")
	}
	s := a.stream(last, c[last].Text)
	stable, tail := s.ViewParts(rc.md)
	key := answerPrefix{md: rc.md, gen: rc.gen, blocks: len(c), headBytes: headBytes(c[:last]), stableLen: len(stable)}
	grew := key.stableLen > a.key.stableLen && key == (answerPrefix{md: a.key.md, gen: a.key.gen, blocks: a.key.blocks, headBytes: a.key.headBytes, stableLen: key.stableLen})
	switch {
	case key == a.key:
	case grew && a.key.stableLen > 0 && strings.HasPrefix(stable[a.key.stableLen:], "\n"):
		// Only finished blocks were added: their lines join the prefix.
		more := strings.Split(stable[a.key.stableLen:], "\n")[1:]
		for _, l := range more {
			a.prefix = append(a.prefix, indentLine(l))
		}
		a.key = key
	default:
		a.prefix = a.prefix[:0]
		if head := a.renderHead(rc, c[:last]); head != "" {
			a.prefix = append(a.prefix, strings.Split(head, "\n")...)
			if rc.showThinking && c[last-1].Type == core.ContentThinking {
				a.prefix = append(a.prefix, "") // a blank line after the thoughts
			}
		}
		if stable != "" {
			for _, l := range strings.Split(stable, "\n") {
				a.prefix = append(a.prefix, indentLine(l))
			}
		}
		a.key = key
	}
	out := a.prefix[:len(a.prefix):len(a.prefix)]
	if stable != "" && tail != "" {
		out = append(a.prefix, indentLine("")) // the blank line between blocks
	}
	if tail != "" {
		for _, l := range strings.Split(tail, "\n") {
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
	s.Set(text)
	if !a.streaming || i < len(a.msg.Content)-1 {
		s.Finish()
	}
	return s
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
