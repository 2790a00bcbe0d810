package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/subagent"
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

// transcriptMsg carries the steps read from a finished subagent's
// transcript, for its task call's expanded block.
type transcriptMsg struct {
	entry *entry
	steps []string
}

// loadTranscripts reads, off the update loop, the transcripts of the
// finished task calls whose steps the TUI did not see (a resumed
// session), when the calls are expanded.
func (m *Model) loadTranscripts() tea.Cmd {
	if !m.expandTools {
		return nil
	}
	var cmds []tea.Cmd
	for _, e := range m.tr.entries {
		t, ok := e.it.(*toolItem)
		if !ok || t.name != subagent.ToolName || t.result == nil || len(t.steps) > 0 || t.loading {
			continue
		}
		var d subagent.Details
		if json.Unmarshal(t.result.Details, &d) != nil || d.Transcript == "" {
			continue
		}
		t.loading = true
		path := d.Transcript
		cmds = append(cmds, func() tea.Msg { return transcriptMsg{entry: e, steps: transcriptSteps(path)} })
	}
	return tea.Batch(cmds...)
}

// onTranscript puts a transcript's steps under its call.
func (m *Model) onTranscript(msg transcriptMsg) tea.Cmd {
	if t, ok := msg.entry.it.(*toolItem); ok && len(t.steps) == 0 {
		t.steps = msg.steps
		msg.entry.touch()
	}
	return nil
}

// transcriptSteps are the steps of a subagent's transcript, as addProgress
// records them live; one line saying why when it cannot be read.
func transcriptSteps(path string) []string {
	f, err := session.Open(path)
	if err != nil {
		return []string{"(the transcript cannot be read: " + escape.Visible(err.Error()) + ")"}
	}
	defer f.Close()
	var steps []string
	for _, msg := range f.Context().Messages {
		if len(steps) >= maxSteps {
			break
		}
		switch msg := msg.(type) {
		case *core.AssistantMessage:
			if text := stepLine(msg.Text()); text != "" {
				steps = append(steps, "  "+text)
			}
			for _, c := range msg.ToolCalls() {
				steps = append(steps, "→ "+subagent.StepOf(c.Name, c.Arguments))
			}
		case *core.ToolResultMessage:
			if msg.IsError {
				steps = append(steps, "  ✗ "+stepLine(core.PlainText(msg.Content)))
			}
		}
	}
	return steps
}
