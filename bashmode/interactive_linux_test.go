package bashmode

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// An interactive `!cmd`, given the real terminal, leaves nothing running
// either: what it starts in a session of its own ends with it.
func TestCommandLeavesNothingRunning(t *testing.T) {
	cmd := Command(`setsid sleep 1000 & echo $!`, Options{Dir: t.TempDir()})
	// Without a reaper the sleep would hold the output open.
	cmd.WaitDelay = runTimeout
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	shelltest.WaitGone(t, runTimeout, pid)
}
