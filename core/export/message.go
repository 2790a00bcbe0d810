package export

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// messages writes a run of messages in order. A tool result is written
// inside the card of the call that asked for it; one whose call is not in
// the run is written on its own.
func (p *page) messages(list []core.Message, ids []string) error {
	shown := make([]bool, len(list)) // tool results already written with their call
	for i, m := range list {
		if shown[i] {
			continue
		}
		id := ""
		if i < len(ids) {
			id = ids[i]
		}
		var err error
		switch m := m.(type) {
		case *core.UserMessage:
			p.user(m, id)
		case *core.AssistantMessage:
			err = p.assistant(m, id, func(callID string) (*core.ToolResultMessage, string) {
				j := takeResult(list, shown, i, callID)
				if j < 0 {
					return nil, ""
				}
				resID := ""
				if j < len(ids) {
					resID = ids[j]
				}
				return list[j].(*core.ToolResultMessage), resID
			})
		case *core.ToolResultMessage:
			p.open("tool-result", id, "Tool result", m.Timestamp)
			p.toolCall(core.Content{Type: core.ContentToolCall, ID: m.ToolCallID, Name: m.ToolName}, m, "")
			p.close()
		case *core.BashExecutionMessage:
			p.bashExecution(m, id)
		case *core.CustomMessage:
			err = p.custom(m, id)
		case *core.CompactionSummaryMessage:
			err = p.summary("compaction", id, "Compaction", "Earlier conversation summarised ("+thousands(m.TokensBefore)+" tokens)", m.Summary, m.Timestamp)
		case *core.BranchSummaryMessage:
			err = p.summary("branch-summary", id, "Branch summary", "Summary of the branch left behind", m.Summary, m.Timestamp)
		case *core.RawMessage:
			p.open("unknown", id, "Message ("+string(m.Role)+")", 0)
			p.w.WriteString("<details><summary>A message of a role cairn does not know</summary><pre>")
			p.writeJSON(m.JSON)
			p.w.WriteString("</pre></details>\n")
			p.close()
		}
		if err != nil {
			return err
		}
		if err := p.failed(); err != nil {
			return err
		}
	}
	return nil
}

// takeResult finds the result of call callID among the messages after the
// assistant message at i, up to the next assistant message, marks it shown
// and returns its index, or -1.
func takeResult(list []core.Message, shown []bool, i int, callID string) int {
	for j := i + 1; j < len(list); j++ {
		switch m := list[j].(type) {
		case *core.AssistantMessage:
			return -1
		case *core.ToolResultMessage:
			if !shown[j] && m.ToolCallID == callID {
				shown[j] = true
				return j
			}
		}
	}
	return -1
}

// open starts a message card: its kind (a CSS class), anchor, who wrote
// it, its label if it has one, and its time.
func (p *page) open(kind, id, who string, ts int64) {
	w := p.w
	p.startTag("section", "msg "+kind, id)
	w.WriteString("\n<div class=\"meta\"><span class=\"who\">")
	writeEscaped(w, who)
	w.WriteString("</span>")
	p.label(id, "")
	if t := when(ts); t != "" {
		w.WriteString("<time>" + t + "</time>")
	}
	w.WriteString("</div>\n")
}

func (p *page) close() { p.w.WriteString("</section>\n") }

// startTag writes an opening tag with its class and, for an entry, the
// anchor other pages link to (e-<entry id>).
func (p *page) startTag(tag, class, id string) {
	w := p.w
	w.WriteString("<" + tag + " class=\"" + class + "\"")
	if id != "" {
		w.WriteString(" id=\"e-")
		writeEscaped(w, id)
		w.WriteString("\"")
	}
	w.WriteString(">")
}

// label writes the label the person gave entry id, if any, followed by
// after.
func (p *page) label(id, after string) {
	if label := p.labels[id]; label != "" && id != "" {
		p.w.WriteString("<span class=\"label\">")
		writeEscaped(p.w, label)
		p.w.WriteString("</span>" + after)
	}
}

// user writes what the person said as they typed it, and their images.
func (p *page) user(m *core.UserMessage, id string) {
	p.open("user", id, "You", m.Timestamp)
	for _, c := range m.Content {
		switch c.Type {
		case core.ContentText:
			p.w.WriteString("<div class=\"text\">")
			writeEscaped(p.w, c.Text)
			p.w.WriteString("</div>\n")
		case core.ContentImage:
			p.image(c)
		}
	}
	p.close()
}

// assistant writes a model's answer: its blocks in order, each tool call
// with its result, the error it stopped with, and its usage.
func (p *page) assistant(m *core.AssistantMessage, id string, result func(callID string) (*core.ToolResultMessage, string)) error {
	p.open("assistant", id, cmp.Or(m.Model, "Assistant"), m.Timestamp)
	for _, c := range m.Content {
		switch c.Type {
		case core.ContentText:
			if strings.TrimSpace(c.Text) == "" {
				continue
			}
			if err := p.markdown(c.Text); err != nil {
				return err
			}
		case core.ContentThinking:
			if err := p.thinking(c); err != nil {
				return err
			}
		case core.ContentToolCall:
			res, resID := result(c.ID)
			p.toolCall(c, res, resID)
		case core.ContentImage:
			p.image(c)
		}
	}
	switch m.StopReason {
	case core.StopError, core.StopAborted:
		text := m.ErrorMessage
		if text == "" && m.StopReason == core.StopAborted {
			text = "Aborted."
		}
		p.w.WriteString("<div class=\"error\">")
		writeEscaped(p.w, text)
		p.w.WriteString("</div>\n")
	case core.StopLength:
		p.w.WriteString("<div class=\"error\">The answer reached the output token limit.</div>\n")
	}
	if !m.Usage.IsZero() {
		p.w.WriteString("<div class=\"usage\">")
		writeEscaped(p.w, usageText(m.Usage))
		p.w.WriteString("</div>\n")
	}
	p.close()
	return nil
}

// thinking writes a thinking block collapsed, with its first line showing.
func (p *page) thinking(c core.Content) error {
	if c.Redacted && c.Thinking == "" {
		p.w.WriteString("<div class=\"thinking redacted\">Thinking (withheld by the provider)</div>\n")
		return nil
	}
	if strings.TrimSpace(c.Thinking) == "" {
		return nil
	}
	p.w.WriteString("<details class=\"thinking\"><summary>Thinking · <span class=\"preview\">")
	writeEscaped(p.w, preview(c.Thinking, 100))
	p.w.WriteString("</span></summary>\n")
	err := p.markdown(c.Thinking)
	p.w.WriteString("</details>\n")
	return err
}

// bashExecution writes a command the person ran with !cmd and its output.
func (p *page) bashExecution(m *core.BashExecutionMessage, id string) {
	p.open("bash", id, "Shell", m.Timestamp)
	state := "ok"
	if m.Cancelled || (m.ExitCode != nil && *m.ExitCode != 0) {
		state = "error"
	}
	w := p.w
	w.WriteString("<div class=\"tool " + state + "\">\n<pre class=\"cmd\">$ ")
	writeEscaped(w, m.Command)
	w.WriteString("</pre>\n")
	p.output(m.Output, state == "error", nil)
	var notes []string
	switch {
	case m.Cancelled:
		notes = append(notes, "cancelled")
	case m.ExitCode != nil:
		notes = append(notes, "exit code "+strconv.Itoa(*m.ExitCode))
	}
	if m.Truncated {
		notes = append(notes, "output truncated")
		if m.FullOutputPath != "" {
			notes = append(notes, "full output in "+m.FullOutputPath)
		}
	}
	if m.ExcludeFromContext {
		notes = append(notes, "not sent to the model")
	}
	if len(notes) > 0 {
		w.WriteString("<div class=\"note\">")
		writeEscaped(w, strings.Join(notes, " · "))
		w.WriteString("</div>\n")
	}
	w.WriteString("</div>\n")
	p.close()
}

// custom writes a message an extension or a front end added, if it is
// meant to be shown.
func (p *page) custom(m *core.CustomMessage, id string) error {
	if !m.Display {
		return nil
	}
	p.open("custom", id, cmp.Or(m.CustomType, "Note"), m.Timestamp)
	for _, c := range m.Content {
		switch c.Type {
		case core.ContentText:
			if err := p.markdown(c.Text); err != nil {
				return err
			}
		case core.ContentImage:
			p.image(c)
		}
	}
	p.close()
	return nil
}

// summary writes a compaction or branch summary, collapsed.
func (p *page) summary(kind, id, who, headline, text string, ts int64) error {
	p.open(kind, id, who, ts)
	p.w.WriteString("<details><summary>")
	writeEscaped(p.w, headline)
	p.w.WriteString("</summary>\n")
	err := p.markdown(text)
	p.w.WriteString("</details>\n")
	p.close()
	return err
}

// imageTypes are the image types a page shows; others could be anything.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// image writes an image block as a data: URI, if its type is an image
// type and its data is base64 (so neither can break out of the attribute).
func (p *page) image(c core.Content) {
	if !imageTypes[c.MimeType] || !isBase64(c.Data) {
		p.w.WriteString("<div class=\"note\">An image that cannot be shown (type ")
		writeEscaped(p.w, strconv.Quote(c.MimeType))
		p.w.WriteString(").</div>\n")
		return
	}
	p.w.WriteString("<img class=\"image\" alt=\"image\" src=\"data:" + c.MimeType + ";base64,")
	p.w.WriteString(c.Data)
	p.w.WriteString("\">\n")
}

func isBase64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}
