package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/tools"
)

// approvalPrompt is the one-line question under a tool call's preview.
type approvalPrompt struct {
	q       core.Question
	shownAt time.Time
}

// approvalKeys are the keys that answer an approval, by option.
var approvalKeys = map[approval.Option]string{
	approval.OptionAllowOnce:    "y",
	approval.OptionAllowSession: "s",
	approval.OptionAllowProject: "p",
	approval.OptionAllowAlways:  "a",
	approval.OptionDeny:         "n",
	approval.OptionDenyReason:   "r",
}

// approvalLabels are the short names the prompt line uses.
var approvalLabels = map[approval.Option]string{
	approval.OptionAllowOnce:    "once",
	approval.OptionAllowSession: "session",
	approval.OptionAllowProject: "project files",
	approval.OptionAllowAlways:  "always",
	approval.OptionDeny:         "deny",
	approval.OptionDenyReason:   "deny+reason",
}

// onQuestion shows a question from the session: an approval inline under
// its tool call, a choice as a picker, anything else as a prompt line.
func (m *Model) onQuestion(q core.Question) tea.Cmd {
	if q.Purpose == core.PurposeApproval && q.Kind == core.QuestionSelect {
		m.approval = &approvalPrompt{q: q, shownAt: m.now()}
		if e, ok := m.tools[q.ToolCallID]; ok {
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
	if q.Kind == core.QuestionSelect {
		m.openPicker(newPicker(q.Title, questionItems(q.Options), pickDialog, &q))
		return nil
	}
	p := &dialogPrompt{q: q, shownAt: m.now()}
	if q.Kind == core.QuestionInput || q.Kind == core.QuestionEditor {
		in := textinput.New()
		in.Placeholder = q.Hint
		in.SetValue(q.Prefill)
		in.SetWidth(max(m.width-6, 10))
		p.input = &in
		m.dialog = p
		return p.input.Focus()
	}
	m.dialog = p
	return nil
}

// onQuestionClosed withdraws a question that ended (answered here or
// elsewhere, timed out, or aborted).
func (m *Model) onQuestionClosed(id string) {
	if m.approval != nil && m.approval.q.ID == id {
		m.clearApproval()
	}
	if m.dialog != nil && m.dialog.q.ID == id {
		m.dialog = nil
	}
	if m.picker != nil && m.picker.question != nil && m.picker.question.ID == id {
		m.picker = nil
	}
}

// answerApproval sends the person's choice.
func (m *Model) answerApproval(choice approval.Option) {
	a := m.approval
	m.clearApproval()
	_ = m.sess.Answer(a.q.ID, core.Answer{Value: string(choice)})
}

func (m *Model) clearApproval() {
	if m.approval == nil {
		return
	}
	if e, ok := m.tools[m.approval.q.ToolCallID]; ok {
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
	for i, o := range m.approval.q.Options {
		opt := approval.Option(o.Value)
		if s == approvalKeys[opt] || s == string(rune('1'+i)) {
			m.answerApproval(opt)
			return nil
		}
	}
	return nil
}

// approvalView is the prompt line(s).
func (m *Model) approvalView() string {
	a := m.approval
	w := max(m.width-2, 10)
	title := m.st.warning.Render("? ") + m.st.text.Bold(true).Render(ansi.Truncate(a.q.Title, w-2, "…"))
	var opts []string
	for i, o := range a.q.Options {
		opt := approval.Option(o.Value)
		key, label := approvalKeys[opt], approvalLabels[opt]
		if key == "" {
			key, label = string(rune('1'+i)), o.Label
		}
		opts = append(opts, m.st.accent.Render("["+key+"]")+" "+label)
	}
	line := strings.Join(opts, "  ") + m.st.dim.Render(" · esc denies")
	view := " " + title + "\n "
	if a.q.Message != "" {
		// A protected file's warning, and the rule "session" and "always"
		// would save: the person sees what they agree to.
		view += m.st.muted.Render(ansi.Truncate(a.q.Message, w, "…")) + "\n "
	}
	return view + ansi.Truncate(line, w, "…")
}

// dialogPrompt is a question other than an approval: yes/no or a line of
// text.
type dialogPrompt struct {
	q       core.Question
	input   *textinput.Model
	shownAt time.Time
}

// answerDialog answers the open prompt; ok false dismisses it.
func (m *Model) answerDialog(a core.Answer, ok bool) {
	d := m.dialog
	m.dialog = nil
	if !ok {
		_ = m.sess.Dismiss(d.q.ID)
		return
	}
	_ = m.sess.Answer(d.q.ID, a)
}

// onDialogKey handles keys while a dialog is open.
func (m *Model) onDialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	s := k.String()
	if s == "esc" || s == "escape" || s == "ctrl+c" {
		m.answerDialog(core.Answer{}, false)
		return nil
	}
	if d.input == nil {
		if m.now().Sub(d.shownAt) < m.opts.ApprovalGuard {
			return nil
		}
		switch s {
		case "y", "Y", "enter":
			m.answerDialog(core.Answer{Yes: true}, true)
		case "n", "N":
			m.answerDialog(core.Answer{Yes: false}, true)
		}
		return nil
	}
	if s == "enter" {
		m.answerDialog(core.Answer{Value: d.input.Value()}, true)
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
	title := m.st.warning.Render("? ") + m.st.text.Bold(true).Render(ansi.Truncate(d.q.Title, w-2, "…"))
	if d.input == nil {
		body := ""
		if d.q.Message != "" {
			body = "\n " + m.st.muted.Render(ansi.Truncate(d.q.Message, w, "…"))
		}
		return " " + title + body + "\n " + m.st.accent.Render("[y]") + " yes  " + m.st.accent.Render("[n]") + " no" + m.st.dim.Render("   esc dismisses")
	}
	return " " + title + "\n " + d.input.View() + "\n " + m.st.dim.Render("enter sends · esc dismisses")
}
