package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
	"github.com/cairn-dev/cairn/tui/toolview"
)

// approvalPrompt is the question under a tool call's preview. It answers
// keys only while it has the focus: a prompt that appears while the person
// is typing leaves the keyboard with the editor until they switch to it
// (tab), so no key meant for the draft can answer it.
type approvalPrompt struct {
	q       core.Question
	shownAt time.Time
	focused bool
	// pending is a choice that saves a rule, waiting for enter: the prompt
	// shows the rule and where it is kept before anything is saved.
	pending approval.Option
	// top is the first line of the title and message shown when they are
	// taller than their room; window is that room (0: all of it shows)
	// and bodyLines their height, both as last drawn.
	top, window, bodyLines int
}

// typingBurst is how long after the last key typed into the editor an
// approval that appears leaves the keyboard with the editor.
const typingBurst = 1500 * time.Millisecond

// approvalSwitchKey moves the keyboard between the editor and a pending
// approval.
const approvalSwitchKey = "tab"

// approvalKeys are the keys that answer an approval, by option.
var approvalKeys = map[approval.Option]string{
	approval.OptionAllowOnce:    "y",
	approval.OptionAllowSession: "s",
	approval.OptionAllowProject: "p",
	approval.OptionAllowServer:  "m",
	approval.OptionAllowAlways:  "a",
	approval.OptionDeny:         "n",
	approval.OptionDenyReason:   "r",
	// The plan of exit_plan_mode (other ways to accept it take numbers).
	approval.OptionPlanDefault:  "y",
	approval.OptionPlanAutoEdit: "e",
	approval.OptionKeepPlanning: "n",
}

// approvalLabels are the short names the prompt line uses.
var approvalLabels = map[approval.Option]string{
	approval.OptionAllowOnce:    "once",
	approval.OptionAllowSession: "session",
	approval.OptionAllowProject: "project files",
	approval.OptionAllowServer:  "MCP server",
	approval.OptionAllowAlways:  "always",
	approval.OptionDeny:         "deny",
	approval.OptionDenyReason:   "deny+reason",
	approval.OptionPlanDefault:  "accept (default)",
	approval.OptionPlanAutoEdit: "accept, edits unasked (auto_edit)",
	approval.OptionKeepPlanning: "keep planning",
}

// onQuestion shows a question from the session: an approval inline under
// its tool call, a choice as a picker, anything else as a prompt line.
func (m *Model) onQuestion(q core.Question) tea.Cmd {
	if q.Purpose == core.PurposeApproval && q.Kind == core.QuestionSelect {
		// The prompt takes the keyboard only from someone who is not
		// typing: an empty draft and no key for a while.
		idle := m.lastTyped.IsZero() || m.now().Sub(m.lastTyped) >= typingBurst
		m.approval = &approvalPrompt{q: q, shownAt: m.now(), focused: m.ed.Empty() && idle}
		m.startWait()
		if e, ok := m.tools[q.ToolCallID]; ok {
			t := e.it.(*toolItem)
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
		return m.alert(q.Title)
	}
	if q.Kind == core.QuestionSelect {
		// An extension's question names it, so it cannot pass for cairn's.
		m.openPicker(newPicker(escape.Visible(q.AttributedTitle()), questionItems(q.Options), pickDialog, &q))
		return m.alert(q.Title)
	}
	p := &dialogPrompt{q: q, shownAt: m.now()}
	if m.busy {
		// A question in a run (a deny reason, a tool's question) is the
		// agent waiting for the person, as an approval is.
		m.startWait()
	}
	if q.Kind == core.QuestionInput || q.Kind == core.QuestionEditor {
		// The prompt's own editor, with no history, files or commands:
		// one text input in the TUI (bubbles' textinput also linked a
		// clipboard package that searched PATH for xclip at every start).
		// Its submit keys answer the question (onDialogKey); unbound in
		// the editor, they cannot send the text as a prompt.
		keys := editorKeys(m.opts.Keys)
		p.submit = append([]string{"enter"}, keys.Submit...)
		keys.Submit, keys.FollowUp = nil, nil
		in := editor.New(editor.Options{Keys: keys, Placeholder: q.Hint, MaxHeight: 5})
		in.SetStyles(m.st.editor)
		in.SetValue(q.Prefill)
		in.SetWidth(max(m.width-6, 10))
		p.input = &in
		m.dialog = p
		return tea.Batch(p.input.Focus(), m.alert(q.Title))
	}
	m.dialog = p
	return m.alert(q.Title)
}

// onQuestionClosed withdraws a question that ended (answered here or
// elsewhere, timed out, or aborted).
func (m *Model) onQuestionClosed(e core.QuestionClosed) {
	id := e.ID
	if m.approval != nil && m.approval.q.ID == id {
		// Still shown here, so answered elsewhere: a client attached to
		// this session (an editor, another terminal, the web page).
		if e.Outcome == core.Answered {
			m.say(core.NotifyInfo, "answered in another client: "+answerLabel(m.approval.q, e.Answer))
		}
		m.clearApproval()
	}
	if m.dialog != nil && m.dialog.q.ID == id {
		m.dialog = nil
		m.endWait()
	}
	if m.picker != nil && m.picker.question != nil && m.picker.question.ID == id {
		m.picker = nil
	}
}

// answerLabel is how an answer to q reads: its option's label, else the
// value itself.
func answerLabel(q core.Question, value string) string {
	for _, o := range q.Options {
		if o.Value == value {
			return escape.Visible(o.Label)
		}
	}
	return escape.Visible(value)
}

// answerApproval sends the person's choice. A choice that saves a rule
// leaves a line in the transcript saying which rule and where it is kept.
func (m *Model) answerApproval(choice approval.Option) {
	a := m.approval
	m.clearApproval()
	if saved := m.ruleSaved(a.q, choice); saved != "" {
		m.say(core.NotifyInfo, saved)
	}
	_ = m.sess.Answer(a.q.ID, core.Answer{Value: string(choice)})
}

func (m *Model) clearApproval() {
	if m.approval == nil {
		return
	}
	m.endWait()
	m.approval = nil
}

// startWait marks the agent waiting for the person: no call of the batch
// runs until every question is answered, so they all wait, with no
// spinner and no time counting.
func (m *Model) startWait() {
	if m.waitingSince.IsZero() {
		m.waitingSince = m.now()
	}
	m.setBatchWaiting(true)
}

// endWait ends the wait: time spent waiting for the person is not time the
// agent worked.
func (m *Model) endWait() {
	if !m.busySince.IsZero() && !m.waitingSince.IsZero() {
		m.busySince = m.busySince.Add(m.now().Sub(m.waitingSince))
	}
	m.waitingSince = time.Time{}
	m.setBatchWaiting(false)
}

// setBatchWaiting marks the calls that have started and not finished as
// waiting for an approval, or not. Their time starts again when the wait
// ends: the core runs a turn's calls together once every one is decided,
// so the time before that is not theirs.
func (m *Model) setBatchWaiting(waiting bool) {
	for _, e := range m.tools {
		t := e.it.(*toolItem)
		if !t.running() {
			continue
		}
		t.awaiting = waiting
		if !waiting {
			t.started = m.now()
		}
		e.touch()
	}
}

// savesRule reports the choices that remember a rule beyond this call.
func savesRule(o approval.Option) bool {
	return o == approval.OptionAllowSession || o == approval.OptionAllowProject || o == approval.OptionAllowServer || o == approval.OptionAllowAlways
}

// ruleText is the rule "session" and "always" would remember, as the
// gate's question states it ("Remembering allows bash: git *."), or "".
func ruleText(q core.Question) string {
	const lead = "Remembering allows "
	_, after, ok := strings.Cut(q.Message, lead)
	if !ok {
		return ""
	}
	return strings.TrimSuffix(strings.TrimSpace(after), ".")
}

// ruleSaved says what a choice remembers and where: "" for a choice that
// remembers nothing.
func (m *Model) ruleSaved(q core.Question, o approval.Option) string {
	rule := ruleText(q)
	if rule == "" {
		rule = strings.TrimSuffix(strings.TrimPrefix(q.Title, "Allow "), "?")
	}
	switch o {
	case approval.OptionAllowSession:
		return "Allowing " + rule + " for the rest of this session (kept in memory, not saved)."
	case approval.OptionAllowProject:
		tool, _, _ := strings.Cut(rule, ":")
		return "Allowing " + tool + " on every file in the project for the rest of this session (kept in memory, not saved)."
	case approval.OptionAllowServer:
		tool, _, _ := strings.Cut(rule, ":")
		if r, ok := approval.MCPServerRule(strings.TrimSpace(tool)); ok {
			return "Allowing " + r.String() + " for the rest of this session (kept in memory, not saved)."
		}
		return ""
	case approval.OptionAllowAlways:
		return "Allowing " + rule + " from now on: saved to " + m.rulesFile() + "."
	}
	return ""
}

// rulesFile names the file "always" saves rules to, relative to the
// project when inside it.
func (m *Model) rulesFile() string {
	f := approval.ProjectRulesFile(m.opts.Cwd)
	if rel, err := filepath.Rel(m.opts.Cwd, f); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return f
}

// onApprovalKey handles a key while an approval is pending and returns
// ok false for a key that belongs to the editor. Without the focus only
// the switch key is the prompt's. With it, y/n/r (or an option's number)
// answer, a choice that saves a rule waits for enter, and any other
// typed character hands the keyboard back to the editor with that
// character. Keys within the guard after the prompt appeared (or after a
// sent draft handed it the keyboard) are dropped: they were typed for
// something else. Tab is deliberate, so no guard follows it.
func (m *Model) onApprovalKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	a := m.approval
	s := k.String()
	if !a.focused {
		if s != approvalSwitchKey {
			return nil, false
		}
		// A deliberate switch: the next key may answer at once.
		a.focused = true
		return nil, true
	}
	if m.is(k, keymap.Clear) {
		// ctrl+c stops the run, as it does from the editor: the call
		// waiting here does not run.
		m.abort()
		return nil, true
	}
	switch s {
	case approvalSwitchKey:
		a.focused, a.pending = false, ""
		return nil, true
	case "esc", "escape":
		if a.pending != "" {
			a.pending = ""
			return nil, true
		}
		m.answerApproval(approval.OptionDeny)
		return nil, true
	case "enter":
		if a.pending != "" {
			m.answerApproval(a.pending)
		}
		return nil, true
	}
	if m.now().Sub(a.shownAt) < m.opts.ApprovalGuard {
		return nil, true
	}
	for i, o := range a.q.Options {
		opt := approval.Option(o.Value)
		if s == approvalKeys[opt] || s == string(rune('1'+i)) {
			if savesRule(opt) {
				a.pending = opt
			} else {
				m.answerApproval(opt)
			}
			return nil, true
		}
	}
	if k.Text != "" {
		// Typing: the keyboard goes back to the draft, key and all.
		a.focused, a.pending = false, ""
		return nil, false
	}
	return nil, true
}

// approvalView is the prompt in at most height lines: its title (the
// whole command or path, wrapped, never cut), what it would remember, and
// the options, wrapped to the width. It says where the keyboard is. When
// the title and message are taller than the room they get, they scroll
// (see scrollApproval) and a line says which part is showing.
func (m *Model) approvalView(height int) string {
	a := m.approval
	w := max(m.width-2, 10)
	body := m.approvalBody(w)
	var tail []string
	if a.pending != "" {
		for _, l := range wrapText(m.ruleSaved(a.q, a.pending), w) {
			tail = append(tail, m.st.accent.Render(l))
		}
		tail = append(tail, m.st.dim.Render("enter confirms · esc goes back"))
	} else {
		tail = m.approvalOptions(w)
	}
	lines := append(m.approvalWindow(body, height-len(tail), w), tail...)
	return " " + strings.Join(lines, "\n ")
}

// approvalBody is the title and the message, each line wrapped to w.
func (m *Model) approvalBody(w int) []string {
	a := m.approval
	var lines []string
	for i, l := range m.titleLines(escape.Visible(a.q.Title), w-2) {
		if i == 0 {
			lines = append(lines, m.st.warning.Render("? ")+l)
		} else {
			lines = append(lines, "  "+l)
		}
	}
	if approval.PlanQuestion(a.q) {
		// The plan is the message: the call's box above shows it.
		return lines
	}
	// A protected file's warning, and the rule "session" and "always"
	// would save: the person sees what they agree to.
	for _, l := range wrapText(escape.VisibleLines(a.q.Message), w) {
		lines = append(lines, m.st.muted.Render(l))
	}
	return lines
}

// shellTitle starts the gate's question about a command ("Allow bash:
// <command>?"), whose command is coloured as shell.
const shellTitle = "Allow bash:"

// titleLines is a question's title wrapped to w, bold; the command of a
// bash approval is coloured as shell, so the words that matter (rm, a
// redirection, a second command after &&) stand out however long it is.
func (m *Model) titleLines(title string, w int) []string {
	lines := wrapText(title, w)
	bold := m.st.text.Bold(true)
	if !strings.HasPrefix(title, shellTitle+" ") || !strings.HasSuffix(title, "?") {
		for i, l := range lines {
			lines[i] = bold.Render(l)
		}
		return lines
	}
	heads, tails := make([]string, len(lines)), make([]string, len(lines))
	command := make([]string, len(lines))
	for i, l := range lines {
		if i == 0 {
			heads[0] = shellTitle
			if strings.HasPrefix(l, shellTitle+" ") {
				heads[0] += " "
			}
			l = strings.TrimPrefix(l, heads[0])
		}
		if i == len(lines)-1 && strings.HasSuffix(l, "?") {
			tails[i], l = "?", strings.TrimSuffix(l, "?")
		}
		command[i] = l
	}
	hl := toolview.Highlight("command.sh", command, m.st.tool)
	for i := range lines {
		code := bold.Render(command[i])
		if hl != nil {
			code = hl[i]
		}
		lines[i] = bold.Render(heads[i]) + code + bold.Render(tails[i])
	}
	return lines
}

// approvalWindow shows body in room lines: all of it when it fits, else
// the part the person scrolled to and a line saying where that is and
// which keys move it. It records the window's size for the scroll keys.
func (m *Model) approvalWindow(body []string, room, w int) []string {
	a := m.approval
	if len(body) <= room {
		a.window, a.bodyLines, a.top = 0, len(body), 0
		return body
	}
	win := max(room-1, 1)
	a.window, a.bodyLines = win, len(body)
	a.top = min(max(a.top, 0), len(body)-win)
	shown := slices.Clone(body[a.top : a.top+win])
	keys := firstKey(m.keys, keymap.ScrollUp) + "/" + firstKey(m.keys, keymap.ScrollDown)
	if a.focused {
		keys = firstKey(m.keys, keymap.SelectUp) + "/" + firstKey(m.keys, keymap.SelectDown) + " " + keys
	}
	where := fmt.Sprintf("lines %d-%d of %d · %s scroll", a.top+1, a.top+win, len(body), keys)
	return append(shown, m.st.warning.Render(ansi.Truncate(where, w, "…")))
}

// scrollApproval moves a prompt taller than its room by lines (negative:
// up) and reports whether there was anything to scroll.
func (m *Model) scrollApproval(lines int) bool {
	a := m.approval
	if a == nil || a.window == 0 {
		return false
	}
	a.top = min(max(a.top+lines, 0), a.bodyLines-a.window)
	return true
}

// approvalOptions are the answer keys and the line saying where the
// keyboard is.
func (m *Model) approvalOptions(w int) []string {
	a := m.approval
	keyStyle := m.st.accent
	if !a.focused {
		keyStyle = m.st.dim
	}
	var opts []string
	for i, o := range a.q.Options {
		opt := approval.Option(o.Value)
		key, label := approvalKeys[opt], approvalLabels[opt]
		if key == "" {
			key, label = string(rune('1'+i)), o.Label
		}
		opts = append(opts, keyStyle.Render("["+key+"]")+" "+label)
	}
	lines := wrapJoined(opts, "  ", w)
	if a.focused {
		lines = append(lines, m.st.dim.Render("esc denies · "+approvalSwitchKey+" back to the editor"))
	} else {
		lines = append(lines, m.st.warning.Render("Keys go to the editor: "+approvalSwitchKey+" to answer · esc interrupts"))
	}
	return lines
}

// wrapText wraps text to w cells, line by line, breaking between words
// where it can and inside a word wider than w: nothing is cut. Empty text
// has no lines.
func wrapText(text string, w int) []string {
	if text == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, toolview.Wrap(l, w)...)
	}
	return out
}

// wrapJoined joins parts with sep into lines no wider than w, breaking
// only between parts (a part wider than w is cut).
func wrapJoined(parts []string, sep string, w int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		switch {
		case cur == "":
			cur = p
		case ansi.StringWidth(cur)+len(sep)+ansi.StringWidth(p) <= w:
			cur += sep + p
		default:
			lines = append(lines, cur)
			cur = p
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return lines
}

// dialogPrompt is a question other than an approval: yes/no or a line of
// text.
type dialogPrompt struct {
	q       core.Question
	input   *editor.Model
	submit  []string // the keys that send input's text
	shownAt time.Time
}

// answerDialog answers the open prompt; ok false dismisses it.
func (m *Model) answerDialog(a core.Answer, ok bool) {
	d := m.dialog
	m.dialog = nil
	m.endWait()
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
	if slices.Contains(d.submit, s) {
		m.answerDialog(core.Answer{Value: d.input.Value()}, true)
		return nil
	}
	var cmd tea.Cmd
	in, cmd := d.input.Update(k)
	d.input = &in
	return cmd
}

// dialogView is a yes/no or text question, its title and message
// wrapped, never cut.
func (m *Model) dialogView() string {
	d := m.dialog
	w := max(m.width-2, 10)
	var lines []string
	if d.q.Extension != "" {
		// Named on a line of its own, so an extension's question cannot
		// pass for cairn's own approval.
		lines = append(lines, m.st.accent.Render("⚑ extension "+escape.Visible(d.q.Extension)+" asks"))
	}
	for i, l := range wrapText(escape.Visible(d.q.Title), w-2) {
		if i == 0 {
			lines = append(lines, m.st.warning.Render("? ")+m.st.text.Bold(true).Render(l))
		} else {
			lines = append(lines, "  "+m.st.text.Bold(true).Render(l))
		}
	}
	if d.input == nil {
		for _, l := range wrapText(escape.VisibleLines(d.q.Message), w) {
			lines = append(lines, m.st.muted.Render(l))
		}
		lines = append(lines, m.st.accent.Render("[y]")+" yes  "+m.st.accent.Render("[n]")+" no"+m.st.dim.Render("   esc dismisses"))
		return " " + strings.Join(lines, "\n ")
	}
	lines = append(lines, d.input.View(), m.st.dim.Render("enter sends · esc dismisses"))
	return " " + strings.Join(lines, "\n ")
}
