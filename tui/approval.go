package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/tools"
)

// approvalPrompt is the one-line question under a tool call's preview.
type approvalPrompt struct {
	id         uint64
	reply      chan dialogAnswer
	title      string
	options    []string
	toolCallID string
	shownAt    time.Time
}

// approvalKeys are the keys that answer an approval, by option.
var approvalKeys = map[string]string{
	approval.OptionAllowOnce:    "y",
	approval.OptionAllowSession: "s",
	approval.OptionAllowProject: "p",
	approval.OptionAllowAlways:  "a",
	approval.OptionDeny:         "n",
	approval.OptionDenyReason:   "r",
}

// approvalLabels are the short names the prompt line uses.
var approvalLabels = map[string]string{
	approval.OptionAllowOnce:    "once",
	approval.OptionAllowSession: "session",
	approval.OptionAllowProject: "project files",
	approval.OptionAllowAlways:  "always",
	approval.OptionDeny:         "deny",
	approval.OptionDenyReason:   "deny+reason",
}

// isApproval reports whether a select question is a tool approval.
func isApproval(d dialogMsg) bool {
	if d.toolCallID != "" {
		return true
	}
	for _, o := range d.options {
		if o == approval.OptionAllowOnce {
			return true
		}
	}
	return false
}

// onDialog shows a question from the session.
func (m *Model) onDialog(d dialogMsg) tea.Cmd {
	if d.kind == dialogSelect && isApproval(d) {
		m.approval = &approvalPrompt{id: d.id, reply: d.reply, title: d.title, options: d.options, toolCallID: d.toolCallID, shownAt: m.now()}
		if e, ok := m.tools[d.toolCallID]; ok {
			t := e.it.(*toolItem)
			t.awaiting = true
			if t.name == "edit" && t.previewDiff == "" {
				if diff, _, err := tools.EditPreview(m.opts.Cwd, t.args); err == nil {
					t.previewDiff = diff
				} else {
					t.previewErr = err.Error()
				}
			}
			e.touch()
		}
		m.tr.end()
		return nil
	}
	if d.kind == dialogSelect {
		m.openPicker(newPicker(d.title, optionItems(d.options), pickDialog, &d))
		return nil
	}
	p := &dialogPrompt{msg: d, shownAt: m.now()}
	if d.kind == dialogInput || d.kind == dialogEditor {
		in := textinput.New()
		in.Placeholder = d.placeholder
		in.SetValue(d.prefill)
		in.SetWidth(max(m.width-6, 10))
		p.input = &in
		m.dialog = p
		return p.input.Focus()
	}
	m.dialog = p
	return nil
}

// onDialogGone withdraws a question nobody waits for any more.
func (m *Model) onDialogGone(id uint64) {
	if m.approval != nil && m.approval.id == id {
		m.clearApproval()
	}
	if m.dialog != nil && m.dialog.msg.id == id {
		m.dialog = nil
	}
	if m.picker != nil && m.picker.dialog != nil && m.picker.dialog.id == id {
		m.picker = nil
	}
}

// answerApproval sends the person's choice.
func (m *Model) answerApproval(choice string) {
	a := m.approval
	m.clearApproval()
	a.reply <- dialogAnswer{value: choice, ok: true}
}

func (m *Model) clearApproval() {
	if m.approval == nil {
		return
	}
	if e, ok := m.tools[m.approval.toolCallID]; ok {
		t := e.it.(*toolItem)
		t.awaiting = false
		t.started = m.now() // the run starts now, not when the question did
		e.touch()
	}
	m.approval = nil
}

// onApprovalKey answers the approval prompt by key. Keys that arrive
// within the guard after the prompt appeared are dropped: they were typed
// for something else.
func (m *Model) onApprovalKey(k tea.KeyPressMsg) tea.Cmd {
	if m.now().Sub(m.approval.shownAt) < m.opts.ApprovalGuard {
		return nil
	}
	s := k.String()
	if s == "esc" || s == "escape" {
		m.answerApproval(approval.OptionDeny)
		return nil
	}
	for i, o := range m.approval.options {
		if s == approvalKeys[o] || s == string(rune('1'+i)) {
			m.answerApproval(o)
			return nil
		}
	}
	return nil
}

// approvalView is the prompt line(s).
func (m *Model) approvalView() string {
	a := m.approval
	w := max(m.width-2, 10)
	title := m.st.warning.Render("? ") + m.st.text.Bold(true).Render(ansi.Truncate(a.title, w-2, "…"))
	var opts []string
	for _, o := range a.options {
		opts = append(opts, m.st.accent.Render("["+approvalKeys[o]+"]")+" "+approvalLabels[o])
	}
	line := strings.Join(opts, "  ") + m.st.dim.Render(" · esc denies")
	return " " + title + "\n " + ansi.Truncate(line, w, "…")
}

// dialogPrompt is a question other than an approval: yes/no or a line of
// text.
type dialogPrompt struct {
	msg     dialogMsg
	input   *textinput.Model
	shownAt time.Time
}

func (m *Model) answerDialog(a dialogAnswer) {
	d := m.dialog
	m.dialog = nil
	d.msg.reply <- a
}

// onDialogKey handles keys while a dialog is open.
func (m *Model) onDialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	s := k.String()
	if s == "esc" || s == "escape" || s == "ctrl+c" {
		m.answerDialog(dialogAnswer{})
		return nil
	}
	if d.input == nil {
		if m.now().Sub(d.shownAt) < m.opts.ApprovalGuard {
			return nil
		}
		switch s {
		case "y", "Y", "enter":
			m.answerDialog(dialogAnswer{value: "yes", ok: true})
		case "n", "N":
			m.answerDialog(dialogAnswer{value: "no", ok: true})
		}
		return nil
	}
	if s == "enter" {
		m.answerDialog(dialogAnswer{value: d.input.Value(), ok: true})
		return nil
	}
	var cmd tea.Cmd
	in, cmd := d.input.Update(k)
	d.input = &in
	return cmd
}

func (m *Model) dialogView() string {
	d := m.dialog
	w := max(m.width-2, 10)
	title := m.st.warning.Render("? ") + m.st.text.Bold(true).Render(ansi.Truncate(d.msg.title, w-2, "…"))
	if d.input == nil {
		body := ""
		if d.msg.message != "" {
			body = "\n " + m.st.muted.Render(ansi.Truncate(d.msg.message, w, "…"))
		}
		return " " + title + body + "\n " + m.st.accent.Render("[y]") + " yes  " + m.st.accent.Render("[n]") + " no" + m.st.dim.Render("   esc dismisses")
	}
	return " " + title + "\n " + d.input.View() + "\n " + m.st.dim.Render("enter sends · esc dismisses")
}
