package tui

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// cycleApprovalMode steps to the next approval mode (shift+tab, as in
// Claude Code: default, auto_edit, plan; see approval.NextMode) and says
// what the new mode does. The footer shows it.
func (m *Model) cycleApprovalMode() {
	if m.opts.Approvals == nil {
		m.status.set(core.NotifyError, "Approval modes are not available here.", m.now())
		return
	}
	next := approval.NextMode(m.opts.Approvals.Mode(), m.startMode)
	m.opts.Approvals.SetMode(next)
	m.status.set(core.NotifyInfo, "Approval mode: "+string(next)+": "+modeSummary(next), m.now())
}

// modeSummary says in a few words what a mode lets run.
func modeSummary(mode approval.Mode) string {
	for _, it := range modeItems() {
		if it.value == string(mode) {
			return it.detail
		}
	}
	if mode == approval.ModeAuto {
		return "runs tools unasked, except edits of protected files"
	}
	return string(mode)
}
