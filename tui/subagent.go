package tui

import (
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/escape"
)

// maxSteps bounds the steps kept of one subagent.
const maxSteps = 500

// addProgress records a subagent's step from an update of its task call:
// each tool call it makes, the failures among them, and the first line of
// each of its answers. Expanded, the call shows them (toolview's Steps).
func (t *toolItem) addProgress(u core.ToolUpdate) {
	p := u.Subagent
	if p == nil || p.Event == nil || len(t.steps) >= maxSteps {
		return
	}
	switch e := p.Event.(type) {
	case core.ToolExecutionStart:
		t.steps = append(t.steps, "→ "+p.Step)
	case core.ToolExecutionEnd:
		if e.Result.IsError {
			t.steps = append(t.steps, "  ✗ "+stepLine(core.PlainText(e.Result.Content)))
		}
	case core.MessageEnd:
		if a, ok := e.Message.(*core.AssistantMessage); ok {
			if text := stepLine(a.Text()); text != "" {
				t.steps = append(t.steps, "  "+text)
			}
		}
	}
}

// stepLine is the first non-blank line of s, escaped.
func stepLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return escape.Visible(l)
		}
	}
	return ""
}

// addToolUsage counts what a tool result's tool spent on models of its
// own (a subagent's answers), so the footer's totals include it.
func (f *footer) addToolUsage(m core.Message) {
	f.usage = f.usage.Add(agent.MessageUsage(m))
}
