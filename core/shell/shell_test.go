//go:build unix

package shell

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// waitLimit bounds every wait in these tests.
const waitLimit = 10 * time.Second

// start starts line with its output in a fresh Output and stops it, if it
// still runs, when the test ends.
func start(t *testing.T, ctx context.Context, c Command) (*Process, *Output) {
	t.Helper()
	out := NewOutput(OutputOptions{TempDir: t.TempDir()})
	c.Output = out
	p, err := Start(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-p.Done():
		default:
			p.kill()
			<-p.Done()
		}
		out.Close()
	})
	return p, out
}

// wait waits for p to end and returns how it ended.
func wait(t *testing.T, p *Process) Exit {
	t.Helper()
	select {
	case <-p.Done():
		return p.Wait()
	case <-time.After(waitLimit):
		t.Fatal("the command did not end")
		return Exit{}
	}
}

// waitOutput waits until the output holds want and returns it.
func waitOutput(t *testing.T, out *Output, want string) string {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		if text := out.Tail().Text; strings.Contains(text, want) {
			return text
		}
		select {
		case <-out.Changed():
		case <-deadline:
			t.Fatalf("output %q never held %q", out.Tail().Text, want)
		}
	}
}

func TestStartAndExit(t *testing.T) {
	tests := []struct {
		name, line, output string
		code               int
		signal             string
	}{
		{"output", "echo hi", "hi\n", 0, ""},
		{"stderr merged in order", "echo out; echo err >&2; echo out2", "out\nerr\nout2\n", 0, ""},
		{"exit code", "echo out; exit 3", "out\n", 3, ""},
		{"killed by a signal", "kill -KILL $$", "", -1, "killed"},
		{"stdin is empty", "cat; echo end", "end\n", 0, ""},
		{"no controlling terminal", "exec 3</dev/tty && echo has a tty || echo no tty", "no tty\n", 0, ""},
		{"escapes cleaned", `printf '\033[31mred\033[0m\n10%%\r100%%\n'`, "red\n100%\n", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, out := start(t, context.Background(), Command{Line: tt.line})
			exit := wait(t, p)
			if got := out.Tail().Text; !strings.HasSuffix(got, tt.output) {
				t.Errorf("output %q, want it to end with %q", got, tt.output)
			}
			if exit.Code != tt.code || exit.Signal != tt.signal || exit.Cancelled || exit.TimedOut || exit.Err != nil {
				t.Errorf("exit %+v, want code %d signal %q", exit, tt.code, tt.signal)
			}
		})
	}
}

func TestStartRunsInDir(t *testing.T) {
	dir := t.TempDir()
	p, out := start(t, context.Background(), Command{Line: "pwd -P", Dir: dir})
	wait(t, p)
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Tail().Text; got != want+"\n" {
		t.Errorf("pwd %q, want %q", got, want)
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(context.Background(), Command{Line: "true", Dir: "/does/not/exist"}); err == nil {
		t.Error("started in a missing directory")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, Command{Line: "true"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Start with an ended context: %v, want context.Canceled", err)
	}
}

// pidsIn reads the numbers the command printed as "pid N".
func pidsIn(t *testing.T, text string) []int {
	t.Helper()
	var pids []int
	for _, line := range strings.Split(text, "\n") {
		if n, ok := strings.CutPrefix(line, "pid "); ok {
			pid, err := strconv.Atoi(n)
			if err != nil {
				t.Fatal(err)
			}
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitPids waits until the command has printed n pids and returns them.
func waitPids(t *testing.T, out *Output, n int) []int {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		if pids := pidsIn(t, out.Tail().Text); len(pids) >= n {
			return pids
		}
		select {
		case <-out.Changed():
		case <-deadline:
			t.Fatalf("output %q: fewer than %d pids", out.Tail().Text, n)
		}
	}
}

// A child that started a grandchild: cancelling kills both, even though the
// grandchild was started in the background.
func TestCancelKillsTheWholeGroup(t *testing.T) {
	for _, grace := range []time.Duration{0, waitLimit} {
		t.Run(fmt.Sprintf("grace %v", grace), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			line := `sh -c 'sleep 60 & echo "pid $!"; echo "pid $$"; wait' & wait`
			p, out := start(t, ctx, Command{Line: line, Grace: grace})
			pids := waitPids(t, out, 2)
			cancel()
			exit := wait(t, p)
			if !exit.Cancelled || exit.TimedOut {
				t.Errorf("exit %+v, want cancelled", exit)
			}
			shelltest.WaitGone(t, waitLimit, pids...)
		})
	}
}

// The group gets SIGTERM first: a command that ends on it does so at once,
// long before the grace is over.
func TestCancelSendsSIGTERMFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, out := start(t, ctx, Command{Line: `trap 'echo got TERM; exit 7' TERM; echo ready; sleep 60 & wait`, Grace: time.Hour})
	waitOutput(t, out, "ready")
	cancel()
	exit := wait(t, p)
	if !strings.Contains(out.Tail().Text, "got TERM") || exit.Code != 7 || !exit.Cancelled {
		t.Errorf("output %q exit %+v, want the TERM trap's", out.Tail().Text, exit)
	}
}

// What ignores SIGTERM gets SIGKILL once the grace is over.
func TestCancelKillsWhatIgnoresSIGTERM(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, out := start(t, ctx, Command{Line: `trap '' TERM; echo "pid $$"; sleep 60; sleep 60`, Grace: 50 * time.Millisecond})
	pids := waitPids(t, out, 1)
	cancel()
	exit := wait(t, p)
	if exit.Signal != "killed" || !exit.Cancelled {
		t.Errorf("exit %+v, want killed", exit)
	}
	shelltest.WaitGone(t, waitLimit, pids...)
}

func TestTimeout(t *testing.T) {
	p, out := start(t, context.Background(), Command{Line: `echo "pid $$"; sleep 60`, Timeout: 50 * time.Millisecond, Grace: 50 * time.Millisecond})
	exit := wait(t, p)
	if !exit.TimedOut || exit.Cancelled || exit.Code != -1 {
		t.Errorf("exit %+v, want timed out", exit)
	}
	shelltest.WaitGone(t, waitLimit, pidsIn(t, out.Tail().Text)...)
}

// A command given no environment starts with cairn's without its keys.
func TestDefaultEnvironmentHasNoKeys(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-test-secret")
	t.Setenv("GH_TOKEN", "gh-test-secret")
	t.Setenv("GOPATH", "/go-test")
	p, out := start(t, context.Background(), Command{Line: `env`})
	wait(t, p)
	got := out.Tail().Text
	if strings.Contains(got, "test-secret") || !strings.Contains(got, "GOPATH=/go-test") {
		t.Errorf("env printed %q: want GOPATH and no secret", got)
	}
}
