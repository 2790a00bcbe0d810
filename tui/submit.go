package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/editor"
)

// onSubmit acts on what the editor sends: `!cmd`, a slash command, or a
// prompt (a steering or follow-up message while the agent works), whose
// `@image.png` and `@server:uri` references are read before it goes.
func (m *Model) onSubmit(sub editor.SubmitMsg) tea.Cmd {
	trimmed := strings.TrimSpace(sub.Text)
	m.lastTyped = time.Time{} // the draft is sent: nobody is typing now
	if m.approval != nil && !m.approval.focused && trimmed != "" {
		// The draft that kept the keyboard from the approval is gone.
		m.approval.focused, m.approval.shownAt = true, m.now()
	}
	switch {
	case trimmed == "" && len(sub.Images) == 0:
		return nil
	case strings.HasPrefix(trimmed, "!"):
		return m.startBash(trimmed)
	case strings.HasPrefix(trimmed, "/") && m.isCommand(trimmed):
		return m.runCommand(trimmed)
	}
	if m.firstRun != nil {
		m.status.set(core.NotifyWarning, "No model is set up yet: see above.", m.now())
		m.restoreDraft(sub)
		return nil
	}
	refs := imageRefs(sub.Text, m.opts.Cwd)
	if len(m.opts.MCPServers.ResourceRefs(sub.Text)) > 0 {
		return m.loadRefs(sub, refs)
	}
	if len(refs) > 0 {
		return loadImageRefs(sub, refs)
	}
	return m.sendPrompt(sub, sub.Images)
}
