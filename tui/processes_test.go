//go:build unix

package tui

import (
	"context"
	"os"
	"path/filepath"
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
	// Enter offers what to do; nothing is killed unasked.
	r.send(key("enter"))
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "Show its output") || !strings.Contains(screen, "Kill it…") {
		t.Fatalf("enter does not offer to show or kill:\n%s", screen)
	}
	r.send(key("down"), key("enter"))
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "Kill bash_1 and everything it started?") {
		t.Fatalf("killing is not asked about:\n%s", screen)
	}
	r.send(key("enter")) // "No, keep it running" comes first
	if i, _ := table.Info("bash_1"); !i.Running || r.m.picker != nil {
		t.Fatalf("answering no killed it (%+v) or left the picker open", i)
	}
	r.command("/ps")
	r.send(key("enter"), key("down"), key("enter"), key("down"))
	kill := r.m.onPickerKey(key("enter"))
	if kill == nil {
		t.Fatal("yes does not kill")
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

// TestPsShowsOutputFollowingIt: /ps, enter, "Show its output" puts the
// command's output in the transcript and keeps it current while it runs;
// the picker's hint says what enter does.
func TestPsShowsOutputFollowingIt(t *testing.T) {
	table := background.New(background.Options{TempDir: t.TempDir()})
	r := newRig(t, rigOptions{processes: table})
	r.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	dir := t.TempDir()
	if _, err := table.Start(background.Command{Line: "echo first line; while [ ! -e " + dir + "/go ]; do sleep 0.05; done; echo second line", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	r.command("/ps")
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "enter shows its output or stops it") {
		t.Errorf("the hint does not match the keys:\n%s", screen)
	}
	r.send(key("enter"), key("enter"))
	waitFollowed(t, r, "first line")
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFollowed(t, r, "second line")
	waitFollowed(t, r, "exited with code 0")
}

// waitFollowed reads the followed command again, as the TUI's timer
// would, each time it prints or ends, until the screen shows want.
func waitFollowed(t *testing.T, r *rig, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(ansi.Strip(r.m.render()), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", want, ansi.Strip(r.m.render()))
		}
		var follow *processItem
		for _, e := range r.m.tr.entries {
			if p, ok := e.it.(*processItem); ok {
				follow = p
			}
		}
		if follow == nil {
			t.Fatalf("no output shown:\n%s", ansi.Strip(r.m.render()))
		}
		r.send(readProcess(r.m.sess.Processes(), follow, 0)())
		if strings.Contains(ansi.Strip(r.m.render()), want) {
			return
		}
		// Waits for new output or the end (this moves the model's read
		// position, which no model uses here).
		_, _ = r.m.sess.Processes().Read(context.Background(), follow.id, nil, time.Second)
	}
}
