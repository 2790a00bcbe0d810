package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestSilentBashTimerTicks runs a command that prints nothing: its time
// and spinner move with the clock on each tick.
func TestSilentBashTimerTicks(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.typeText("!sleep 30")
	r.send(key("enter"))
	if r.m.bash == nil {
		t.Fatal("the command did not start")
	}
	run := r.m.bash.run
	defer func() {
		run.Cancel()
		select {
		case <-run.Done():
		case <-time.After(10 * time.Second):
			t.Error("the command did not stop")
		}
	}()
	first := ansi.Strip(r.m.render())
	if !strings.Contains(first, "running 0.0s") {
		t.Fatalf("no running line:\n%s", first)
	}
	now = now.Add(2500 * time.Millisecond)
	r.send(tickMsg{})
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "running 2.5s") {
		t.Fatalf("the timer did not move with the clock:\n%s", screen)
	}
	if spinnerAt(first) == spinnerAt(screen) {
		t.Fatalf("the spinner did not move: %q", spinnerAt(screen))
	}
}

// spinnerAt is the spinner frame before "running" on screen.
func spinnerAt(screen string) string {
	i := strings.Index(screen, " running ")
	if i < 0 {
		return ""
	}
	r := []rune(strings.TrimSpace(screen[:i]))
	return string(r[len(r)-1])
}
