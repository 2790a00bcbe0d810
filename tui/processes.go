package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/escape"
)

// processesMsg says the session's background commands changed: one
// started or ended.
type processesMsg struct{}

// pumpProcesses forwards the changes of the session's background commands
// to send until done closes.
func pumpProcesses(changes <-chan struct{}, send func(tea.Msg), done <-chan struct{}) {
	for {
		select {
		case <-changes:
			send(processesMsg{})
		case <-done:
			return
		}
	}
}

// connectProcesses starts pumpProcesses for the session's table, if it
// has one; stop ends it.
func (m *Model) connectProcesses(send func(tea.Msg)) (stop func()) {
	table := m.sess.Processes()
	if table == nil {
		return func() {}
	}
	changes, unsubscribe := table.Subscribe()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		pumpProcesses(changes, send, done)
	}()
	return func() {
		close(done)
		unsubscribe()
		<-finished
	}
}

// onProcesses counts the running background commands again, for the
// footer.
func (m *Model) onProcesses() tea.Cmd {
	if table := m.sess.Processes(); table != nil {
		m.foot.processes = table.Running()
	}
	return nil
}

// cmdPs is /ps: a picker listing the background commands, newest first,
// where enter offers to show the selected one's output (followed while it
// runs) or to kill it, after asking; `/ps kill <id>` kills one at once.
func (m *Model) cmdPs(args string) tea.Cmd {
	table := m.sess.Processes()
	if table == nil {
		m.say(core.NotifyInfo, "This session runs no background commands.")
		return nil
	}
	if id, ok := strings.CutPrefix(args, "kill"); ok && (id == "" || id[0] == ' ') {
		id = strings.TrimSpace(id)
		if id == "" {
			m.say(core.NotifyError, "/ps kill needs an id, such as bash_1: /ps lists them.")
			return nil
		}
		return m.killProcess(table, id)
	}
	if args != "" {
		m.say(core.NotifyError, fmt.Sprintf("Unknown /ps argument %q: use /ps or /ps kill <id>.", args))
		return nil
	}
	list := table.List()
	items := make([]pickItem, 0, len(list))
	for i := len(list) - 1; i >= 0; i-- {
		p := list[i]
		items = append(items, pickItem{label: p.ID + "  " + p.Status(), detail: p.Command, value: p.ID})
	}
	picker := newPicker("Background commands · enter shows its output or stops it", items, pickProcess, nil)
	picker.empty = "No background commands in this session."
	m.openPicker(picker)
	return nil
}

// killProcess kills the background command id in a tea.Cmd (it waits for
// the command to end) and reports how it went.
func (m *Model) killProcess(table *background.Table, id string) tea.Cmd {
	m.status.setKeyed("command", "Stopping "+id+"…")
	return func() tea.Msg {
		info, err := table.Kill(context.Background(), id)
		if err != nil {
			return commandDoneMsg{err: fmt.Errorf("cannot stop %s: %w", id, err)}
		}
		return commandDoneMsg{text: fmt.Sprintf("Killed %s (%s).", info.ID, info.Command)}
	}
}

// onProcessPicked goes on from a /ps picker: a command picked offers what
// to do with it; "show" follows its output in the transcript; "kill" asks
// first, and only "yes" kills.
func (m *Model) onProcessPicked(p pickedMsg) tea.Cmd {
	table := m.sess.Processes()
	if table == nil {
		return nil
	}
	action, id, _ := strings.Cut(p.value, ":")
	switch p.kind {
	case pickProcess:
		info, err := table.Info(p.value)
		if err != nil {
			m.say(core.NotifyError, err.Error())
			return nil
		}
		items := []pickItem{{label: "Show its output", detail: "followed while it runs", value: "show:" + info.ID}}
		if info.Running {
			items = append(items, pickItem{label: "Kill it…", detail: "asks first", value: "kill:" + info.ID})
		}
		m.openPicker(newPicker(info.ID+" · "+oneLine(info.Command, 60), items, pickProcessAction, nil))
	case pickProcessAction:
		if action == "show" {
			return m.followProcess(table, id)
		}
		info, err := table.Info(id)
		if err != nil {
			m.say(core.NotifyError, err.Error())
			return nil
		}
		m.openPicker(newPicker("Kill "+info.ID+" and everything it started?",
			[]pickItem{{label: "No, keep it running", value: "no:" + id}, {label: "Yes, kill it", detail: oneLine(info.Command, 200), value: "yes:" + id}}, pickProcessKill, nil))
	case pickProcessKill:
		if action == "yes" {
			return m.killProcess(table, id)
		}
	}
	return nil
}

// processTailBytes is how much of a followed command's output is read.
const processTailBytes = 16 << 10

// processFollowEvery is how often a followed command's output is read
// again while it runs: the table offers no event for new output that
// would not move the model's read position.
const processFollowEvery = 500 * time.Millisecond

// processItem shows a background command's latest output, followed while
// it runs.
type processItem struct {
	id, command string
	output      string
	running     bool
	status      string
}

// processOutputMsg is a fresh read of a followed command.
type processOutputMsg struct {
	item   *processItem
	output string
	info   background.Info
	err    error
}

// followProcess adds the command's output to the transcript and keeps it
// current until the command ends.
func (m *Model) followProcess(table *background.Table, id string) tea.Cmd {
	info, err := table.Info(id)
	if err != nil {
		m.say(core.NotifyError, err.Error())
		return nil
	}
	it := &processItem{id: info.ID, command: info.Command, running: info.Running, status: info.Status()}
	m.tr.add(it)
	m.tr.end()
	return readProcess(table, it, 0)
}

// readProcess reads the command's output after wait, off the UI loop.
func readProcess(table *background.Table, it *processItem, wait time.Duration) tea.Cmd {
	read := func() tea.Msg {
		out, err := table.Tail(it.id, processTailBytes)
		info, ierr := table.Info(it.id)
		if err == nil {
			err = ierr
		}
		return processOutputMsg{item: it, output: string(out), info: info, err: err}
	}
	if wait == 0 {
		return read
	}
	return tea.Tick(wait, func(time.Time) tea.Msg { return read() })
}

// onProcessOutput takes a fresh read and asks for the next one while the
// command runs.
func (m *Model) onProcessOutput(msg processOutputMsg) tea.Cmd {
	it := msg.item
	if msg.err != nil {
		it.running, it.status = false, msg.err.Error()
	} else {
		it.output, it.running, it.status = msg.output, msg.info.Running, msg.info.Status()
	}
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if m.tr.entries[i].it == it {
			m.tr.entries[i].touch()
			break
		}
	}
	if it.running {
		return readProcess(m.sess.Processes(), it, processFollowEvery)
	}
	return nil
}

// processPreviewLines is how many of the latest lines a followed command
// shows until ctrl+o expands it.
const processPreviewLines = 12

func (p *processItem) render(rc *renderContext) string {
	w := rc.contentWidth()
	state := rc.st.muted.Render(p.status)
	if p.running {
		state = rc.st.warning.Render(rc.spinner + " " + p.status + " · following its output")
	}
	head := rc.st.accent.Render(p.id) + " " + rc.st.text.Bold(true).Render(ansi.Truncate(escape.Visible(p.command), max(w-len(p.id)-2, 4), "…"))
	lines := strings.Split(strings.TrimRight(ansi.Strip(p.output), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		lines = []string{rc.st.dim.Render("(no output yet)")}
	}
	out := []string{head}
	if !rc.expandTools && len(lines) > processPreviewLines {
		out = append(out, rc.st.dim.Render(fmt.Sprintf("… %d earlier lines (%s to expand)", len(lines)-processPreviewLines, rc.expandHint)))
		lines = lines[len(lines)-processPreviewLines:]
	}
	for _, l := range lines {
		out = append(out, ansi.Truncate(escape.Visible(strings.ReplaceAll(l, "\t", "    ")), w, "…"))
	}
	out = append(out, state)
	return indent(strings.Join(out, "\n"))
}
