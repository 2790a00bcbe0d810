package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/cairn-dev/cairn/bashmode"
	"github.com/cairn-dev/cairn/core"
)

func TestKeyBytes(t *testing.T) {
	appCursor := bashmode.InputModes{AppCursor: true}
	tests := []struct {
		name  string
		key   tea.KeyPressMsg
		modes bashmode.InputModes
		want  string
	}{
		{"letter", tea.KeyPressMsg{Code: 'a', Text: "a"}, bashmode.InputModes{}, "a"},
		{"shifted letter", tea.KeyPressMsg{Code: 'a', Text: "A", Mod: tea.ModShift}, bashmode.InputModes{}, "A"},
		{"non-ASCII", tea.KeyPressMsg{Code: 'é', Text: "é"}, bashmode.InputModes{}, "é"},
		{"space", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, bashmode.InputModes{}, " "},
		{"enter", tea.KeyPressMsg{Code: tea.KeyEnter}, bashmode.InputModes{}, "\r"},
		{"keypad enter", tea.KeyPressMsg{Code: tea.KeyKpEnter}, bashmode.InputModes{}, "\r"},
		{"tab", tea.KeyPressMsg{Code: tea.KeyTab}, bashmode.InputModes{}, "\t"},
		{"shift+tab", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, bashmode.InputModes{}, "\x1b[Z"},
		{"backspace", tea.KeyPressMsg{Code: tea.KeyBackspace}, bashmode.InputModes{}, "\x7f"},
		{"ctrl+backspace", tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModCtrl}, bashmode.InputModes{}, "\b"},
		{"alt+backspace", tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}, bashmode.InputModes{}, "\x1b\x7f"},
		{"esc", tea.KeyPressMsg{Code: tea.KeyEscape}, bashmode.InputModes{}, "\x1b"},
		{"ctrl+a", tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x01"},
		{"ctrl+d", tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x04"},
		{"ctrl+z", tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x1a"},
		{"ctrl+space", tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x00"},
		{"ctrl+@", tea.KeyPressMsg{Code: '@', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x00"},
		{"ctrl+backslash", tea.KeyPressMsg{Code: '\\', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x1c"},
		{"ctrl+]", tea.KeyPressMsg{Code: ']', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x1d"},
		{"ctrl+_", tea.KeyPressMsg{Code: '_', Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x1f"},
		{"ctrl+alt+a", tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl | tea.ModAlt}, bashmode.InputModes{}, "\x1b\x01"},
		{"alt+b", tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}, bashmode.InputModes{}, "\x1bb"},
		{"alt+shift+b", tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt | tea.ModShift}, bashmode.InputModes{}, "\x1bB"},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, bashmode.InputModes{}, "\x1b[A"},
		{"down, application mode", tea.KeyPressMsg{Code: tea.KeyDown}, appCursor, "\x1bOB"},
		{"right", tea.KeyPressMsg{Code: tea.KeyRight}, bashmode.InputModes{}, "\x1b[C"},
		{"left", tea.KeyPressMsg{Code: tea.KeyLeft}, bashmode.InputModes{}, "\x1b[D"},
		{"ctrl+left", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, appCursor, "\x1b[1;5D"},
		{"shift+up", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModShift}, bashmode.InputModes{}, "\x1b[1;2A"},
		{"home", tea.KeyPressMsg{Code: tea.KeyHome}, bashmode.InputModes{}, "\x1b[H"},
		{"end, application mode", tea.KeyPressMsg{Code: tea.KeyEnd}, appCursor, "\x1bOF"},
		{"delete", tea.KeyPressMsg{Code: tea.KeyDelete}, bashmode.InputModes{}, "\x1b[3~"},
		{"ctrl+delete", tea.KeyPressMsg{Code: tea.KeyDelete, Mod: tea.ModCtrl}, bashmode.InputModes{}, "\x1b[3;5~"},
		{"page down", tea.KeyPressMsg{Code: tea.KeyPgDown}, bashmode.InputModes{}, "\x1b[6~"},
		{"f1", tea.KeyPressMsg{Code: tea.KeyF1}, bashmode.InputModes{}, "\x1bOP"},
		{"shift+f1", tea.KeyPressMsg{Code: tea.KeyF1, Mod: tea.ModShift}, bashmode.InputModes{}, "\x1b[1;2P"},
		{"f5", tea.KeyPressMsg{Code: tea.KeyF5}, bashmode.InputModes{}, "\x1b[15~"},
		{"f12", tea.KeyPressMsg{Code: tea.KeyF12}, bashmode.InputModes{}, "\x1b[24~"},
		{"modifier alone", tea.KeyPressMsg{Code: tea.KeyLeftShift, Mod: tea.ModShift}, bashmode.InputModes{}, ""},
		{"media key", tea.KeyPressMsg{Code: tea.KeyMediaPlay}, bashmode.InputModes{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(keyBytes(tt.key, tt.modes)); got != tt.want {
				t.Errorf("keyBytes(%s) = %q, want %q", tt.key.Keystroke(), got, tt.want)
			}
		})
	}
}

// TestBashKeysReachCommand answers a running command's prompt: the keys
// go to the command, not to the editor.
func TestBashKeysReachCommand(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true})
	tm := r.program(80, 24)
	typeInto(tm, `!read -p 'name? ' x; echo "hi $x"`)
	tm.Send(key("enter"))
	// The hint and the prompt may come in one frame or two.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := ansi.Strip(string(b))
		return strings.Contains(s, "keys go to the command · esc esc or ctrl+c stops it") && strings.Contains(s, "name?")
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	typeInto(tm, "bob")
	tm.Send(key("enter"))
	waitScreen(t, tm, "exit 0")
	msgs := bashMessages(r)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Output, "hi bob") {
		t.Fatalf("bash executions = %+v, want one with hi bob", msgs)
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	if fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model); fm.ed.Value() != "" {
		t.Errorf("the editor got the command's keys: %q", fm.ed.Value())
	}
}

// TestBashEscEscStops: one esc goes to the command, as does a paste; a
// second esc soon after stops it.
func TestBashEscEscStops(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(key("!"))
	r.typeText(`IFS= read -r x; printf '%s' "$x" | od -An -c; sleep 30`)
	r.send(key("enter"))
	b := r.m.bash
	if b == nil {
		t.Fatal("the command is not running")
	}
	r.send(key("esc"), tea.PasteMsg{Content: "x"}, key("enter"))
	waitRun(t, b.run, func() bool { return strings.Contains(strings.Join(b.run.Snapshot().Lines, "\n"), "033   x") })
	select {
	case <-b.run.Done():
		t.Fatal("one esc stopped the command")
	default:
	}
	r.send(key("esc"), key("esc"))
	select {
	case <-b.run.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("esc esc did not stop the command")
	}
	if res := b.run.Result(); !res.Cancelled {
		t.Errorf("result %+v, want stopped", res)
	}
}

// waitRun waits for the run's screen to change until ok holds.
func waitRun(t *testing.T, run *bashmode.Run, ok func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	// Updates has one slot, and a bash-update command the rig started and
	// gave up on may take the last signal: the check runs again every
	// 10 ms as well, so a screen that is already right is seen.
	recheck := time.NewTicker(10 * time.Millisecond)
	defer recheck.Stop()
	for !ok() {
		select {
		case <-run.Updates():
		case <-recheck.C:
		case <-deadline:
			t.Fatalf("screen %q", run.Snapshot().Lines)
		}
	}
}

func bashMessages(r *rig) []*core.BashExecutionMessage {
	var got []*core.BashExecutionMessage
	for _, m := range r.sess.Messages() {
		if b, ok := m.(*core.BashExecutionMessage); ok {
			got = append(got, b)
		}
	}
	return got
}
