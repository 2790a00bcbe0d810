package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/markdown"
)

func (m *Model) cmdModel(args string) tea.Cmd {
	m.openModelPicker(args)
	return nil
}

// openModelPicker lists the available models, filtered by search.
func (m *Model) openModelPicker(search string) {
	var models []core.Model
	if m.opts.Models != nil {
		models = m.opts.Models()
	}
	cur := m.sess.State().Model
	items := make([]pickItem, 0, len(models))
	for _, md := range models {
		detail := md.Provider
		if md.ContextWindow > 0 {
			detail += fmt.Sprintf(" · %s context", formatCount(md.ContextWindow))
		}
		if md.Reasoning {
			detail += " · thinks"
		}
		if md.Provider == cur.Provider && md.ID == cur.ID {
			detail += " · current"
		}
		items = append(items, pickItem{label: md.ID, detail: detail, value: md.Provider + "/" + md.ID})
	}
	p := newPicker("Model", items, pickModel, nil).selectValue(cur.Provider + "/" + cur.ID)
	p.empty = "No models are available: set an API key or add ~/.cairn/models.json."
	p.filter = search
	p.refilter()
	m.openPicker(p)
}

// cycleModel switches to the next available model.
func (m *Model) cycleModel() tea.Cmd {
	md, ok, err := m.sess.CycleModel()
	switch {
	case err != nil:
		m.status.set(core.NotifyError, err.Error(), m.now())
	case !ok:
		m.status.set(core.NotifyInfo, "Only one model is available.", m.now())
	default:
		m.status.set(core.NotifyInfo, "Model: "+md.Provider+"/"+md.ID+m.switchThinking(), m.now())
	}
	m.foot.refresh(m.sess)
	return nil
}

func (m *Model) setModel(value string) {
	provider, id, _ := strings.Cut(value, "/")
	if m.opts.Models != nil {
		for _, md := range m.opts.Models() {
			if md.Provider == provider && md.ID == id {
				if err := m.sess.SetModel(md); err != nil {
					m.status.set(core.NotifyError, err.Error(), m.now())
					return
				}
				m.firstRun = nil
				m.foot.refresh(m.sess)
				m.status.set(core.NotifyInfo, "Model: "+value+m.switchThinking(), m.now())
				return
			}
		}
	}
	m.status.set(core.NotifyError, "No model "+value, m.now())
}

// onPicked acts on a picker's choice (or its dismissal).
func (m *Model) onPicked(p pickedMsg) tea.Cmd {
	if p.kind == pickDialog {
		if p.question != nil {
			if p.ok {
				_ = m.sess.Answer(p.question.ID, core.Answer{Value: p.value})
			} else {
				_ = m.sess.Dismiss(p.question.ID)
			}
		}
		return nil
	}
	if !p.ok {
		return nil
	}
	switch p.kind {
	case pickRewind, pickRewindHow:
		return m.onRewindPicked(p)
	case pickProcess, pickProcessAction, pickProcessKill:
		return m.onProcessPicked(p)
	case pickThinking:
		m.setThinking(core.ThinkingLevel(p.value))
	case pickMode:
		m.setMode(p.value)
	case pickTheme:
		m.applyThemeName(p.value)
	case pickModel:
		m.setModel(p.value)
	case pickResume:
		return m.switchTo(func() (func(*Model), error) { return nil, m.sess.OpenConversation(p.value) }, "Resumed the session.")
	case pickTree:
		// Picking a user message goes to just before it, with its text in
		// the editor to edit and send again; picking an answer continues
		// after it.
		n, _ := p.payload.(agent.TreeNode)
		at, done := p.value, "Moved to the chosen answer; the next message starts a new branch from it."
		if n.Role == "user" {
			at, done = n.ParentID, "Moved to before the chosen message; edit it and send it to start a new branch."
		}
		return m.switchTo(func() (func(*Model), error) {
			err := m.sess.Branch(at)
			return func(m *Model) {
				if n.Role == "user" {
					m.ed.SetValue(n.Text)
				}
			}, err
		}, done)
	case pickFork:
		return m.switchTo(func() (func(*Model), error) {
			text, err := m.sess.Fork(p.value)
			return func(m *Model) {
				if text != "" {
					m.ed.SetValue(text)
				}
			}, err
		}, "Forked into a new session; edit the message and send it.")
	}
	return nil
}

// applyThemeName switches to a built-in or custom theme by name.
func (m *Model) applyThemeName(name string) {
	t, err := themes.Resolve(name, m.opts.Themes, m.theme.Dark)
	if err != nil {
		m.status.set(core.NotifyError, err.Error(), m.now())
		return
	}
	m.setTheme(t)
	m.themeChosen = true
	if m.opts.SaveTheme != nil {
		if err := m.opts.SaveTheme(name); err != nil {
			m.status.set(core.NotifyWarning, "Theme applied but not saved: "+err.Error(), m.now())
			return
		}
	}
	m.status.set(core.NotifyInfo, "Theme: "+name, m.now())
}

// needSessions reports (and says) when session files are off.
func (m *Model) needSessions() bool {
	if m.sess.InMemory() {
		m.status.set(core.NotifyError, "Sessions are not saved in this run (--no-session).", m.now())
		return false
	}
	return true
}

func (m *Model) cmdNew(string) tea.Cmd {
	if !m.needSessions() {
		return nil
	}
	return m.switchTo(func() (func(*Model), error) { return nil, m.sess.NewConversation("") }, "Started a new session.")
}

// switchTo moves the session to the conversation open chooses (the
// session restores its model and thinking level) and shows it. The run in
// progress must have stopped first.
//
// open runs off the event loop: an extension's BeforeSwitch handler (pi's
// session_before_switch, session_before_fork) may ask the person first,
// and the loop must stay free to show its dialog. then, when open returns
// one, runs on the loop after a change that happened.
func (m *Model) switchTo(open func() (then func(*Model), err error), done string) tea.Cmd {
	if m.busy {
		m.status.set(core.NotifyWarning, "Wait for the agent to finish (or press esc) first.", m.now())
		return nil
	}
	if m.switching {
		m.status.set(core.NotifyWarning, "A session change is already under way.", m.now())
		return nil
	}
	m.switching = true
	return func() tea.Msg {
		then, err := open()
		return switchedMsg{err: err, done: done, then: then}
	}
}

// shutdownMsg says Options.Shutdown was closed: the interface quits.
type shutdownMsg struct{}

// switchedMsg ends a conversation change switchTo started.
type switchedMsg struct {
	err  error
	done string
	then func(*Model)
}

// onSwitched shows the conversation a change moved to, or why it did not
// happen: a change an extension cancelled is a notice, not a failure.
func (m *Model) onSwitched(msg switchedMsg) tea.Cmd {
	m.switching = false
	if errors.Is(msg.err, agent.ErrSwitchCancelled) {
		e := msg.err.Error()
		m.say(core.NotifyInfo, strings.ToUpper(e[:1])+e[1:]+".")
		return nil
	}
	if msg.err != nil {
		m.say(core.NotifyError, msg.err.Error())
		return nil
	}
	if msg.then != nil {
		msg.then(m)
	}
	m.tr.clear()
	clear(m.tools)
	m.current = nil
	m.showConversation(m.sess.Messages())
	m.foot.reset(m.opts, m.sess)
	m.say(core.NotifyInfo, msg.done)
	return nil
}

func (m *Model) cmdResume(string) tea.Cmd {
	if !m.needSessions() {
		return nil
	}
	list, err := m.sess.ListConversations()
	if err != nil {
		m.say(core.NotifyError, "Could not list sessions: "+err.Error())
		return nil
	}
	cur := m.sess.Conversation().File
	var items []pickItem
	for _, s := range list {
		if s.Path == cur {
			continue
		}
		first := s.FirstMessage
		if s.Name != "" {
			first = s.Name + ": " + first
		}
		if first == "" {
			first = "(no messages)"
		}
		first = strings.Join(strings.Fields(first), " ")
		when := s.LastEntry
		if when.IsZero() {
			when = s.Modified
		}
		detail := fmt.Sprintf("%s · %d messages", ago(m.now(), when), s.MessageCount)
		items = append(items, pickItem{label: first, detail: detail, value: s.Path})
	}
	p := newPicker("Resume a session", items, pickResume, nil)
	p.empty = "No other sessions in this directory."
	m.openPicker(p)
	return nil
}

func (m *Model) cmdTree(string) tea.Cmd {
	if !m.needSessions() {
		return nil
	}
	nodes, err := m.sess.Tree()
	if err != nil {
		m.say(core.NotifyError, "Could not read the session tree: "+err.Error())
		return nil
	}
	// Only branching deepens the tree, so a long conversation stays flat:
	// an entry is one deeper than its parent when it has siblings. Entries
	// come in file order, parents first.
	kids := map[string]int{}
	for _, n := range nodes {
		kids[n.ParentID]++
	}
	depth := map[string]int{}
	var items []pickItem
	for _, n := range nodes {
		d := 0
		if n.ParentID != "" {
			d = depth[n.ParentID]
			if kids[n.ParentID] > 1 {
				d++
			}
		}
		depth[n.ID] = d
		if n.Role != "user" && n.Role != "assistant" {
			continue
		}
		mark := "  "
		if n.OnPath {
			mark = "• "
		}
		prefix := strings.Repeat("  ", min(d, 10))
		if d > 0 && kids[n.ParentID] > 1 {
			// The first entry of a branch says so, not only by its indent.
			prefix = strings.Repeat("  ", min(d, 10)-1) + "↳ "
		}
		text := n.Text
		if n.Role == "assistant" {
			text = markdown.Text(text) // a preview, not a rendering: no markup
		}
		label := prefix + mark + n.Role + ": " + oneLine(text, 200)
		if n.Label != "" {
			// A bookmark (pi's setLabel) comes first, as pi's tree shows it.
			label = prefix + mark + "[" + oneLine(n.Label, 40) + "] " + n.Role + ": " + oneLine(text, 200)
		}
		items = append(items, pickItem{label: label, value: n.ID, payload: n})
	}
	p := newPicker("Session tree (• is the current branch)", items, pickTree, nil)
	p.empty = "The session is empty."
	if len(p.shown) > 0 {
		p.selected = len(p.shown) - 1
	}
	m.openPicker(p)
	return nil
}

func (m *Model) cmdFork(string) tea.Cmd {
	if !m.needSessions() {
		return nil
	}
	nodes, err := m.sess.Tree()
	if err != nil {
		m.say(core.NotifyError, "Could not read the session: "+err.Error())
		return nil
	}
	var items []pickItem
	for _, n := range nodes {
		if n.Role == "user" && n.OnPath {
			items = append(items, pickItem{label: oneLine(n.Text, 200), value: n.ID})
		}
	}
	p := newPicker("Fork from which message?", items, pickFork, nil)
	p.empty = "There are no messages to fork from yet."
	if len(p.shown) > 0 {
		p.selected = len(p.shown) - 1
	}
	m.openPicker(p)
	return nil
}

// ago says how long ago t was, briefly.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return t.Format("2006-01-02")
}
