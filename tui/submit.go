package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/tui/editor"
)

// onSubmit acts on what the editor sends: `!cmd`, a slash command, or a
// prompt (a steering or follow-up message while the agent works).
func (m *Model) onSubmit(sub editor.SubmitMsg) tea.Cmd {
	text := sub.Text
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return nil
	case strings.HasPrefix(trimmed, "!"):
		return m.startBash(trimmed)
	case strings.HasPrefix(trimmed, "/") && m.isCommand(trimmed):
		return m.runCommand(trimmed)
	}
	if m.firstRun != nil {
		m.status.set(core.NotifyWarning, "No model is set up yet: see above.", m.now())
		m.ed.SetValue(text)
		return nil
	}
	// The behaviour matters only when the agent is already working, which
	// it may be before its agent_start reaches the screen.
	behavior := agent.BehaviorSteer
	if sub.FollowUp {
		behavior = agent.BehaviorFollowUp
	}
	err := m.sess.Prompt(text, nil, behavior)
	if err == nil && !m.busy {
		m.busy, m.busySince = true, m.now()
	}
	if err != nil {
		m.ed.SetValue(text) // nothing typed is lost
		m.status.set(core.NotifyError, err.Error(), m.now())
	}
	m.tr.end()
	return nil
}
