package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// A run_in_background command, and what it started in a session of its
// own, outlives the foreground commands around it and ends with the
// session (its table closing).
func TestBackgroundCommandLivesUntilTheSessionEnds(t *testing.T) {
	table := background.New(background.Options{TempDir: t.TempDir()})
	defer table.Close()
	b := newTestBash(t)
	b.Background = table
	pidFile := filepath.Join(t.TempDir(), "pids")
	line := `setsid sleep 1000 & echo $! > ` + pidFile + `.tmp; echo $$ >> ` + pidFile + `.tmp; mv ` + pidFile + `.tmp ` + pidFile + `; wait`
	if res := run(t, b, map[string]any{"command": line, "run_in_background": true}); res.IsError {
		t.Fatalf("start: %s", text(res))
	}
	pids := readPids(t, pidFile, 2)
	defer shelltest.WaitGone(t, time.Minute, pids...) // should the test fail early
	if res := run(t, b, map[string]any{"command": "sleep 0.01 & echo done"}); res.IsError {
		t.Fatalf("foreground: %s", text(res))
	}
	for _, pid := range pids {
		if shelltest.Gone(pid) {
			t.Fatalf("process %d of the background command ended with a foreground one", pid)
		}
	}
	table.Close()
	shelltest.WaitGone(t, 10*time.Second, pids...)
}

// readPids polls path, written whole by a rename, for n pids.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		if data, err := os.ReadFile(path); err == nil {
			var pids []int
			for _, f := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, pid)
				}
			}
			if len(pids) == n {
				return pids
			}
			t.Fatalf("%s holds %q, want %d pids", path, data, n)
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("no pids in %s", path)
		}
	}
}
