package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
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
// where enter kills the selected one; `/ps kill <id>` kills one at once.
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
	picker := newPicker("Background commands · enter kills the selected one", items, pickProcess, nil)
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
