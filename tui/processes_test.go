//go:build unix

package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// /ps lists the background commands, enter kills the selected one, and the
// footer counts those running, kept up to date through Connect.
func TestPsListsAndKillsBackgroundCommands(t *testing.T) {
	table := background.New(background.Options{TempDir: t.TempDir()})
	r := newRig(t, rigOptions{processes: table})
	r.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	msgs := make(chan tea.Msg, 16)
	stop := r.m.Connect(func(msg tea.Msg) { msgs <- msg })
	defer stop()

	info, err := table.Start(background.Command{Line: "exec sleep 1000"})
	if err != nil {
		t.Fatal(err)
	}
	waitProcessesMsg(t, msgs)
	r.send(processesMsg{})
	if foot := ansi.Strip(r.m.footerView(120)); !strings.Contains(foot, "1 bg") {
		t.Errorf("footer does not count the running command:\n%s", foot)
	}

	r.command("/ps")
	screen := ansi.Strip(r.m.render())
	if r.m.picker == nil || !strings.Contains(screen, "bash_1  running") || !strings.Contains(screen, "exec sleep 1000") {
		t.Fatalf("/ps does not list the command:\n%s", screen)
	}
	kill := r.m.onPickerKey(key("enter"))
	if kill == nil {
		t.Fatal("enter on a running command does nothing")
	}
	r.send(kill())
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "Killed bash_1 (exec sleep 1000).") {
		t.Errorf("the kill is not reported:\n%s", screen)
	}
	shelltest.WaitGone(t, 10*time.Second, info.Pid)
	waitProcessesMsg(t, msgs)
	r.send(processesMsg{})
	if foot := ansi.Strip(r.m.footerView(120)); strings.Contains(foot, " bg") {
		t.Errorf("footer still counts a killed command:\n%s", foot)
	}

	r.command("/ps kill bash_1")
	if msg := r.m.killProcess(table, "bash_1")(); !strings.Contains(msg.(commandDoneMsg).err.Error(), "already ended") {
		t.Errorf("killing an ended command: %v", msg)
	}
	r.command("/ps bogus")
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, `Unknown /ps argument "bogus"`) {
		t.Errorf("/ps bogus is not refused:\n%s", screen)
	}
}

func waitProcessesMsg(t *testing.T, msgs <-chan tea.Msg) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-msgs:
			if _, ok := msg.(processesMsg); ok {
				return
			}
		case <-deadline:
			t.Fatal("no processesMsg within 10s")
		}
	}
}
