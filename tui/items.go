package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/tui/markdown"
)

// renderContext is what items are drawn with.
type renderContext struct {
	width        int
	height       int // the terminal's height (a resize redraws every item)
	gen          int // the transcript's generation: theme and toggles
	st           *styles
	md           *markdown.Renderer
	expandTools  bool
	showThinking bool
	// thinkingLabel names folded thinking ("Thinking:", or an
	// extension's label).
	thinkingLabel string
	now           time.Time
	spinner       string
	expandHint    string // "ctrl+o", the expandTools key
	modeHint      string // "shift+tab", the key that cycles the approval mode
}

// contentWidth is the width inside the transcript's left gutter.
func (rc *renderContext) contentWidth() int { return max(rc.width-2, 10) }

// indent prefixes every line of s with two spaces.
func indent(s string) string {
	if s == "" {
		return s
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// userItem is a message the person sent.
type userItem struct {
	text   string
	images int
	// typed is how the person typed a message made from a command (a
	// skill, a template), or nil.
	typed *typedPrompt
}

// userPreviewLines is how much of a long message (a paste) shows until
// tool output is expanded.
const userPreviewLines = 12

func (u *userItem) render(rc *renderContext) string {
	w := rc.contentWidth()
	body := u.text
	if u.typed != nil && !rc.expandTools {
		return rc.st.user.Width(rc.width).Render(u.typedView(rc, w-2))
	}
	if n := strings.Count(body, "\n") + 1; !rc.expandTools && n > userPreviewLines+3 {
		lines := strings.SplitN(body, "\n", userPreviewLines+1)
		body = strings.Join(lines[:userPreviewLines], "\n") +
			fmt.Sprintf("\n… %d more lines (%s to show all)", n-userPreviewLines, rc.expandHint)
	}
	if u.images > 0 {
		body += fmt.Sprintf("\n[%d image(s)]", u.images)
	}
	box := rc.st.user.Width(rc.width).Render(lipgloss.Wrap(body, w-2, ""))
	return box
}

// typedView draws a message made from a command as pi does: the kind
// and name ("[skill] review"), how to see the text the model read, then
// the person's own words.
func (u *userItem) typedView(rc *renderContext, w int) string {
	head := rc.st.accent.Render("["+u.typed.kind+"] ") + u.typed.name +
		rc.st.muted.Render(" ("+rc.expandHint+" to expand)")
	body := lipgloss.Wrap(head, w, "")
	if u.typed.args != "" {
		body += "\n" + lipgloss.Wrap(u.typed.args, w, "")
	}
	if u.images > 0 {
		body += fmt.Sprintf("\n[%d image(s)]", u.images)
	}
	return body
}

// assistantItem is one answer: its thinking and text blocks, streamed.
// Tool calls are items of their own, placed after it.
type assistantItem struct {
	msg       *core.AssistantMessage
	streams   map[int]*markdown.Stream // text blocks by content index
	streaming bool
	// drawn holds the lines kept between frames while it streams (see
	// lines).
	drawn answerLines
	// fed says which stream took the last delta in (see takeDelta).
	fed fedText
	// retries is how many automatic retries failed before this answer's
	// error was final.
	retries int
}

func newAssistantItem(m *core.AssistantMessage, streaming bool) *assistantItem {
	return &assistantItem{msg: m, streams: map[int]*markdown.Stream{}, streaming: streaming}
}

// update takes a newer snapshot of the message; stream compares its
// texts with what its streams hold.
func (a *assistantItem) update(m *core.AssistantMessage) { a.msg, a.fed = m, fedText{} }

func (a *assistantItem) render(rc *renderContext) string {
	var parts []string
	w := rc.contentWidth()
	for i, c := range a.msg.Content {
		switch c.Type {
		case core.ContentThinking:
			// While the model still thinks, the collapsed line follows its
			// latest line, so the person sees it move on.
			latest := a.streaming && i == len(a.msg.Content)-1
			if t := renderThinking(rc, c.Thinking, w, latest); t != "" {
				if rc.showThinking && i < len(a.msg.Content)-1 {
					t += "\n" // a blank line between the thoughts and what follows
				}
				parts = append(parts, t)
			}
		case core.ContentText:
			if strings.TrimSpace(c.Text) == "" {
				continue
			}
			parts = append(parts, a.stream(i, c.Text).View(rc.md))
		}
	}
	if a.msg.StopReason == core.StopError && a.msg.ErrorMessage != "" {
		lead := "Error: "
		if a.retries > 0 {
			lead = fmt.Sprintf("Error after %d retries: ", a.retries)
		}
		parts = append(parts, rc.st.errorText.Render(lipgloss.Wrap(lead+a.msg.ErrorMessage, w, "")))
	}
	if a.msg.StopReason == core.StopAborted {
		parts = append(parts, rc.st.muted.Render("Interrupted."))
	}
	if a.scripted() {
		parts = append(parts, rc.st.dim.Render(scriptedTag))
	}
	return indent(strings.Join(parts, "\n"))
}

// scriptedTag marks an answer the faux provider played back from a script,
// so nobody takes it for a model's.
const scriptedTag = "scripted (faux): not written by a model"

// scripted reports whether the answer is a finished one from the faux
// provider that ends its turn (the answers before a tool call are part of
// the same turn and go untagged, to keep the tag to one a turn).
func (a *assistantItem) scripted() bool {
	if a.streaming || a.msg.Provider != faux.ProviderName || a.msg.StopReason == core.StopToolUse {
		return false
	}
	for _, c := range a.msg.Content {
		if c.Type == core.ContentToolCall {
			return false
		}
	}
	return true
}

// renderThinking shows a thinking block: one dim line when collapsed (its
// latest line while it streams, its first after), all of it wrapped when
// expanded.
func renderThinking(rc *renderContext, text string, w int, latest bool) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	if !rc.showThinking {
		first, _, _ := strings.Cut(text, "\n")
		if latest {
			first = text[strings.LastIndexByte(text, '\n')+1:]
		}
		label := rc.thinkingLabel
		if label == "" {
			label = "Thinking:"
		}
		line := "∴ " + label + " " + strings.TrimSpace(first)
		return rc.st.thinking.Render(ansi.Truncate(line, w, "…"))
	}
	return rc.st.thinking.Render(markdown.RenderPlain("∴ "+text, w, lipgloss.NewStyle()))
}

// noticeItem is a line from cairn itself: a retry, a compaction, a command's
// answer.
type noticeItem struct {
	level core.NotifyLevel
	text  string
}

func (n *noticeItem) render(rc *renderContext) string {
	st := rc.st.muted
	switch n.level {
	case core.NotifyError:
		st = rc.st.errorText
	case core.NotifyWarning:
		st = rc.st.warning
	}
	return indent(st.Render(lipgloss.Wrap(n.text, rc.contentWidth(), "")))
}

// textItem is preformatted text (help, hotkeys), shown as is.
type textItem struct{ text string }

func (t *textItem) render(rc *renderContext) string {
	return indent(lipgloss.Wrap(t.text, rc.contentWidth(), ""))
}

// compactionItem is a compaction summary: collapsed to one line unless
// tool output is expanded.
type compactionItem struct {
	summary      string
	tokensBefore int
}

func (c *compactionItem) render(rc *renderContext) string {
	head := rc.st.accent.Render("▣ Compacted") + rc.st.muted.Render(fmt.Sprintf(" (%s tokens summarised)", formatCount(c.tokensBefore)))
	if !rc.expandTools {
		return indent(head + rc.st.dim.Render("  "+rc.expandHint+" to show the summary"))
	}
	return indent(head + "\n" + rc.md.Render(c.summary))
}
