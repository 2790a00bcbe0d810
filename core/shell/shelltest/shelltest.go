//go:build unix

// Package shelltest helps tests of the packages that run shell commands
// (core/shell, the bash tool, bashmode) check that processes are gone.
package shelltest

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Gone reports whether pid has exited; a zombie counts, since nothing runs
// any more.
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the command name in parentheses.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

// WaitGone waits up to limit until every one of pids has exited, and fails
// the test (killing what is left) when some have not. A killed process ends
// a moment after the signal, with no event to wait on, so this polls.
func WaitGone(t testing.TB, limit time.Duration, pids ...int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for {
		left := slices.DeleteFunc(slices.Clone(pids), Gone)
		if len(left) == 0 {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("processes %v still running", left)
		}
	}
}
