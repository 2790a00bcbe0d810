package bashmode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

func TestMain(m *testing.M) {
	// The test binary stands in for cairn in sandboxed commands.
	sandbox.RunIfChild()
	shell.RunIfReaper()
	goleak.VerifyTestMain(m)
}

// runTimeout bounds every wait in these tests.
const runTimeout = 10 * time.Second

func start(t *testing.T, ctx context.Context, command string, opts Options) *Run {
	t.Helper()
	if opts.LogDir == "" {
		opts.LogDir = t.TempDir()
	}
	r, err := Start(ctx, command, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Cancel()
		<-r.Done()
	})
	return r
}

// finish waits for the run to end and returns its result.
func finish(t *testing.T, r *Run) Result {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(runTimeout):
		t.Fatalf("run did not end; screen %q", r.Snapshot().Lines)
	}
	return r.Result()
}

// waitFor waits for updates until the screen shows a row containing s and
// returns the screen.
func waitFor(t *testing.T, r *Run, s string) Screen {
	t.Helper()
	deadline := time.After(runTimeout)
	for {
		snap := r.Snapshot()
		for _, line := range snap.Lines {
			if strings.Contains(line, s) {
				return snap
			}
		}
		select {
		case <-r.Updates():
		case <-r.Done():
			t.Fatalf("run ended before %q appeared; screen %q", s, r.Snapshot().Lines)
		case <-deadline:
			t.Fatalf("%q did not appear; screen %q", s, snap.Lines)
		}
	}
}

func TestRunOutput(t *testing.T) {
	tests := []struct {
		name    string
		command string
		lines   []string
		output  string
	}{
		{"colours kept", `printf '\033[31mred\033[0m plain\n'`, []string{"\x1b[31mred\x1b[m plain"}, "red plain"},
		{"progress bar collapses", `printf 'get 10%%\rget 50%%\rget 100%%\n'`, []string{"get 100%"}, "get 100%"},
		{"erase line", `printf 'hello world\r\033[Kbye\n'`, []string{"bye"}, "bye"},
		{"stderr on the same terminal", `echo out; echo err >&2`, []string{"out", "err"}, "out\nerr"},
		{"stdin is a terminal", `test -t 0 && echo tty`, []string{"tty"}, "tty"},
		{"term set for colours", `echo "$TERM $GIT_PAGER"`, []string{"xterm-256color cat"}, "xterm-256color cat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, context.Background(), tt.command, Options{})
			res := finish(t, r)
			if got := r.Snapshot().Lines; !slices.Equal(got, tt.lines) {
				t.Errorf("screen %q, want %q", got, tt.lines)
			}
			if res.Output != tt.output || res.Truncated || res.FullOutputPath != "" {
				t.Errorf("output %q truncated %v path %q, want %q whole", res.Output, res.Truncated, res.FullOutputPath, tt.output)
			}
			if res.ExitCode == nil || *res.ExitCode != 0 || res.Cancelled {
				t.Errorf("exit code %v cancelled %v, want 0", res.ExitCode, res.Cancelled)
			}
		})
	}
}

func TestRunExitCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := start(t, context.Background(), "pwd; exit 3", Options{Dir: dir, LogDir: dir})
	res := finish(t, r)
	if res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("exit code %v, want 3", res.ExitCode)
	}
	if res.Output != dir {
		t.Errorf("ran in %q, want %q", res.Output, dir)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("log dir holds %d files for an output that was not cut", len(entries))
	}
}

func TestRunMaxLines(t *testing.T) {
	t.Parallel()
	r := start(t, context.Background(), "seq 1 50", Options{MaxLines: 10})
	finish(t, r)
	s := r.Snapshot()
	var want []string
	for i := 41; i <= 50; i++ {
		want = append(want, strconv.Itoa(i))
	}
	if !slices.Equal(s.Lines, want) || s.Total != 50 || s.Dropped != 40 {
		t.Errorf("screen %q total %d dropped %d, want 41..50, 50, 40", s.Lines, s.Total, s.Dropped)
	}
}

func TestRunTruncation(t *testing.T) {
	t.Run("lines", func(t *testing.T) {
		t.Parallel()
		r := start(t, context.Background(), "seq 1 3000", Options{})
		res := finish(t, r)
		var all []string
		for i := 1; i <= 3000; i++ {
			all = append(all, strconv.Itoa(i))
		}
		if want := strings.Join(all[1000:], "\n"); res.Output != want {
			t.Errorf("output starts %q, ends %q; want lines 1001..3000", head(res.Output), tail(res.Output))
		}
		checkFullOutput(t, res, strings.Join(all, "\n"))
	})
	t.Run("bytes", func(t *testing.T) {
		t.Parallel()
		// 100 lines of 1000 characters: each wraps over 13 rows of 80
		// columns, and 51 lines fit in 50 KB.
		r := start(t, context.Background(), `awk 'BEGIN { for (i = 1; i <= 100; i++) { s = sprintf("%03d", i); while (length(s) < 1000) s = s "x"; print s } }'`, Options{})
		res := finish(t, r)
		var all []string
		for i := 1; i <= 100; i++ {
			s := fmt.Sprintf("%03d", i)
			all = append(all, s+strings.Repeat("x", 1000-len(s)))
		}
		if want := strings.Join(all[49:], "\n"); res.Output != want {
			t.Errorf("output has %d lines starting %q, want the last 51", strings.Count(res.Output, "\n")+1, head(res.Output))
		}
		checkFullOutput(t, res, strings.Join(all, "\n"))
	})
}

func checkFullOutput(t *testing.T, res Result, want string) {
	t.Helper()
	if !res.Truncated || res.FullOutputPath == "" {
		t.Fatalf("truncated %v, path %q: want a cut output and a log", res.Truncated, res.FullOutputPath)
	}
	full, err := os.ReadFile(res.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(full) != want {
		t.Errorf("full output has %d bytes starting %q, want %d bytes starting %q", len(full), head(string(full)), len(want), head(want))
	}
}

func head(s string) string { return s[:min(len(s), 20)] }
func tail(s string) string { return s[max(0, len(s)-20):] }

// pids reads the numbers the command printed as "pid N".
func pids(t *testing.T, s Screen) []int {
	t.Helper()
	var out []int
	for _, line := range s.Lines {
		if n, ok := strings.CutPrefix(line, "pid "); ok {
			pid, err := strconv.Atoi(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, pid)
		}
	}
	return out
}

func TestRunCancel(t *testing.T) {
	tests := []struct {
		name    string
		command string
		pids    int
	}{
		// A background and a foreground child: both must die.
		{"children", `sleep 100 & echo "pid $!"; sh -c 'echo "pid $$"; exec sleep 100'; wait`, 2},
		// Everything ignores the hangup: SIGKILL after the grace.
		{"signals ignored", `trap '' TERM HUP; sh -c 'echo "pid $$"; exec sleep 100'`, 1},
		// Input is the terminal: a read waits for it.
		{"waiting for input", `echo "pid $$"; read x`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, context.Background(), tt.command, Options{})
			var got []int
			for len(got) < tt.pids {
				waitFor(t, r, "pid ")
				got = pids(t, r.Snapshot())
				if len(got) < tt.pids {
					select {
					case <-r.Updates():
					case <-time.After(runTimeout):
						t.Fatal("no more output")
					}
				}
			}
			begun := time.Now()
			r.Cancel()
			r.Cancel() // a second call is harmless
			res := finish(t, r)
			if took := time.Since(begun); took > CancelGrace+2*time.Second {
				t.Errorf("cancel took %v", took)
			}
			if !res.Cancelled || res.ExitCode != nil {
				t.Errorf("cancelled %v exit code %v, want cancelled without a code", res.Cancelled, res.ExitCode)
			}
			shelltest.WaitGone(t, runTimeout, got...)
		})
	}
}

func TestRunContextCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	r := start(t, ctx, `echo "pid $$"; exec sleep 100`, Options{})
	waitFor(t, r, "pid ")
	pid := pids(t, r.Snapshot())
	cancel()
	if res := finish(t, r); !res.Cancelled {
		t.Errorf("not cancelled: %+v", res)
	}
	shelltest.WaitGone(t, runTimeout, pid...)

	if _, err := Start(ctx, "true", Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Start with an ended context: %v, want context.Canceled", err)
	}
}

func TestRunResizeAndInput(t *testing.T) {
	t.Parallel()
	r := start(t, context.Background(), `stty size; read x; stty size; echo "got $x"`, Options{Cols: 80, Rows: 24})
	waitFor(t, r, "24 80")
	if err := r.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	res := finish(t, r)
	// The terminal echoes the input line.
	if want := "24 80\nhello\n30 100\ngot hello"; res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	if err := r.Resize(90, 20); err != nil {
		t.Errorf("resize after the end: %v", err)
	}
	if _, err := r.Write([]byte("x")); err == nil {
		t.Error("write after the end succeeded")
	}
}

// TestRunBackgroundEndsWithTheCommand: a background process that ignores
// the hangup, and one in a session of its own, end with the shell, and
// the run ends with them.
func TestRunBackgroundEndsWithTheCommand(t *testing.T) {
	t.Parallel()
	// The shell ignores the hangup before it starts the child, which
	// inherits that.
	r := start(t, context.Background(), `trap '' HUP; sleep 30 & echo "pid $!"; setsid sleep 30 & echo "pid $!"`, Options{})
	res := finish(t, r)
	bg := pids(t, r.Snapshot())
	if len(bg) != 2 {
		t.Fatalf("screen %q: want two pids", r.Snapshot().Lines)
	}
	if res.ExitCode == nil || *res.ExitCode != 0 || res.Cancelled {
		t.Errorf("result %+v, want exit 0", res)
	}
	shelltest.WaitGone(t, runTimeout, bg...)
}

// A `!cmd` in the terminal sees none of cairn's keys.
func TestRunSeesNoKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	r := start(t, context.Background(), `echo "key=$OPENAI_API_KEY."; cat /proc/self/environ | tr '\0' '\n' | grep -c test-secret`, Options{})
	finish(t, r)
	got := strings.Join(r.Snapshot().Lines, "\n")
	if !strings.Contains(got, "key=.") || strings.Contains(got, "test-secret") || !strings.Contains(got, "\n0") {
		t.Errorf("screen %q: the command saw the key", got)
	}
}

func TestStartErrors(t *testing.T) {
	_, err := Start(context.Background(), "true", Options{Dir: "/does/not/exist"})
	if err == nil {
		t.Fatal("started in a missing directory")
	}
}
