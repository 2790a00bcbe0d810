package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDemoCleansUpWhenTheTerminalCloses closes the terminal under a running
// `cairn --demo` (tmux kills the pane with SIGHUP, as a closed terminal
// window does): the throwaway project goes, as it does on /quit and
// SIGTERM.
func TestDemoCleansUpWhenTheTerminalCloses(t *testing.T) {
	tmp := t.TempDir()
	h := newHarness(t, tmuxTerminal, "TMPDIR="+tmp)
	p := h.tmux.start("demo", 100, 30, h.project, cairnBin, "--demo")
	p.waitText("Demo: cairn is playing a script")
	demos, _ := filepath.Glob(filepath.Join(tmp, "cairn-demo-*"))
	if len(demos) != 1 {
		t.Fatalf("want one demo project in %s, found %v", tmp, demos)
	}
	h.tmux.must("kill-pane", "-t", "demo")
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		if _, err := os.Stat(demos[0]); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo's project %s is still there %s after the terminal closed", demos[0], waitTimeout)
		}
		<-tick.C
	}
}
