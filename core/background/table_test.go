//go:build unix

package background

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

func newTable(t *testing.T, opts Options) *Table {
	t.Helper()
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	tb := New(opts)
	t.Cleanup(tb.Close)
	return tb
}

func start(t *testing.T, tb *Table, line string) Info {
	t.Helper()
	info, err := tb.Start(Command{Line: line})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// readUntil reads id until cond holds for all the text read so far, or
// fails after waitLimit.
func readUntil(t *testing.T, tb *Table, id string, filter *regexp.Regexp, cond func(text string, r Read) bool) (string, Read) {
	t.Helper()
	var all []string
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		r, err := tb.Read(context.Background(), id, filter, time.Until(deadline))
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != "" {
			all = append(all, r.Text)
		}
		text := strings.Join(all, "\n")
		if cond(text, r) {
			return text, r
		}
	}
	t.Fatalf("%s: condition not met within %v; read %q", id, waitLimit, strings.Join(all, "\n"))
	return "", Read{}
}

func ended(_ string, r Read) bool { return !r.Info.Running }

func TestReadGivesNewOutputOnce(t *testing.T) {
	tb := newTable(t, Options{})
	info := start(t, tb, "echo one; echo two; exit 3")
	if !strings.HasPrefix(info.ID, "bash_") || info.Pid <= 0 || info.OutputPath == "" {
		t.Fatalf("start gave %+v", info)
	}
	text, r := readUntil(t, tb, info.ID, nil, ended)
	if text != "one\ntwo" || r.Info.Exit.Code != 3 || r.Info.Status() != "exited with code 3" {
		t.Fatalf("read %q, %s", text, r.Info.Status())
	}
	again, err := tb.Read(context.Background(), info.ID, nil, 0)
	if err != nil || again.Text != "" {
		t.Fatalf("second read gave %q, %v; want nothing new", again.Text, err)
	}
	saved, err := os.ReadFile(info.OutputPath)
	if err != nil || string(saved) != "one\ntwo\n" {
		t.Fatalf("spill file holds %q, %v", saved, err)
	}
}

func TestReadFilterKeepsMatchingLines(t *testing.T) {
	tb := newTable(t, Options{})
	info := start(t, tb, `printf 'a1\nb2\na3\n'`)
	var unmatched int
	text, _ := readUntil(t, tb, info.ID, regexp.MustCompile(`^a`), func(_ string, r Read) bool {
		unmatched += r.Unmatched
		return !r.Info.Running
	})
	if text != "a1\na3" || unmatched != 1 {
		t.Fatalf("filtered read %q with %d unmatched, want a1, a3 and 1", text, unmatched)
	}
}

// A command that writes more than memory holds: the reader is told how
// much it missed, and the spill file has all of it.
func TestOutputBeyondMemoryGoesToTheFile(t *testing.T) {
	tb := newTable(t, Options{RingBytes: 1024})
	info := start(t, tb, "seq 1 20000")
	var skipped int64
	text, _ := readUntil(t, tb, info.ID, nil, func(_ string, r Read) bool {
		skipped += r.Skipped
		return !r.Info.Running
	})
	if skipped == 0 || !strings.HasSuffix(text, "\n20000") {
		t.Fatalf("skipped %d bytes, text ends %q", skipped, text[max(0, len(text)-20):])
	}
	saved, err := os.ReadFile(info.OutputPath)
	if err != nil || !strings.HasPrefix(string(saved), "1\n2\n3\n") || !strings.HasSuffix(string(saved), "\n20000\n") {
		t.Fatalf("spill file wrong (%d bytes, %v)", len(saved), err)
	}
}

// pidsOf reads the pids a command prints as "pid N" lines.
func pidsOf(t *testing.T, tb *Table, id string, n int) []int {
	t.Helper()
	text, _ := readUntil(t, tb, id, regexp.MustCompile(`^pid `), func(text string, _ Read) bool {
		return strings.Count(text, "pid ") >= n
	})
	var pids []int
	for line := range strings.SplitSeq(text, "\n") {
		pid, err := strconv.Atoi(strings.TrimPrefix(line, "pid "))
		if err != nil {
			t.Fatalf("bad line %q", line)
		}
		pids = append(pids, pid)
	}
	return pids
}

func TestKillStopsTheWholeGroup(t *testing.T) {
	tb := newTable(t, Options{Grace: 50 * time.Millisecond})
	info := start(t, tb, `sleep 1000 & echo "pid $!"; echo "pid $$"; wait`)
	pids := pidsOf(t, tb, info.ID, 2)
	if tb.Running() != 1 {
		t.Fatalf("running %d, want 1", tb.Running())
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	got, err := tb.Kill(ctx, info.ID)
	if err != nil || got.Running || !got.Killed || got.Status() != "killed" {
		t.Fatalf("kill gave %+v, %v", got, err)
	}
	shelltest.WaitGone(t, waitLimit, pids...)
	if _, err := tb.Kill(ctx, info.ID); !errors.Is(err, ErrExited) {
		t.Fatalf("second kill: %v, want ErrExited", err)
	}
	if _, err := tb.Kill(ctx, "bash_99"); !errors.Is(err, ErrUnknown) {
		t.Fatalf("kill of an unknown id: %v, want ErrUnknown", err)
	}
	if tb.Running() != 0 {
		t.Fatalf("running %d after kill", tb.Running())
	}
}

// A command whose shell exits leaves nothing running: what it put in the
// background of its group is killed with it.
func TestShellExitTakesItsGroup(t *testing.T) {
	tb := newTable(t, Options{})
	info := start(t, tb, `sleep 1000 & echo "pid $!"`)
	pids := pidsOf(t, tb, info.ID, 1)
	readUntil(t, tb, info.ID, nil, ended)
	shelltest.WaitGone(t, waitLimit, pids...)
}

func TestCloseKillsEverythingAndRemovesFiles(t *testing.T) {
	tb := newTable(t, Options{Grace: 50 * time.Millisecond})
	a := start(t, tb, `echo "pid $$"; sleep 1000`)
	b := start(t, tb, `echo "pid $$"; exec sleep 1000`)
	pids := append(pidsOf(t, tb, a.ID, 1), pidsOf(t, tb, b.ID, 1)...)
	changes, stop := tb.Subscribe()
	defer stop()
	tb.Close()
	shelltest.WaitGone(t, waitLimit, pids...)
	for _, info := range tb.List() {
		if info.Running || !info.Killed {
			t.Errorf("%s after Close: %s", info.ID, info.Status())
		}
		if _, err := os.Stat(info.OutputPath); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s's output file is still there: %v", info.ID, err)
		}
	}
	select {
	case <-changes:
	default:
		t.Error("no change notified when the commands ended")
	}
	if _, err := tb.Start(Command{Line: "true"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("start after close: %v, want ErrClosed", err)
	}
}

func TestMaxRunning(t *testing.T) {
	tb := newTable(t, Options{MaxRunning: 1, Grace: 10 * time.Millisecond})
	start(t, tb, "sleep 1000")
	if _, err := tb.Start(Command{Line: "sleep 1000"}); err == nil || !strings.Contains(err.Error(), "kill_shell") {
		t.Fatalf("second start: %v, want a refusal naming kill_shell", err)
	}
}
