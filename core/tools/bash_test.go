//go:build unix

package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

func newTestBash(t *testing.T) *Bash {
	b := NewBash(t.TempDir())
	b.TempDir = t.TempDir()
	return b
}

func TestBash(t *testing.T) {
	cases := []struct {
		name    string
		command string
		want    string
		isError bool
	}{
		{"output", "echo hi", "hi\n", false},
		{"stderr merged in order", "echo out; echo err >&2; echo out2", "out\nerr\nout2\n", false},
		{"no output", "true", "(no output)", false},
		{"exit code", "echo out; exit 3", "out\n\n\nCommand exited with code 3", true},
		{"exit code without output", "exit 1", "(no output)\n\nCommand exited with code 1", true},
		{"killed by a signal", "kill -KILL $$", "(no output)\n\nCommand terminated by signal: killed", true},
		{"stdin is empty", "cat; echo end", "end\n", false},
	}
	b := newTestBash(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, b, map[string]any{"command": c.command})
			if text(res) != c.want || res.IsError != c.isError {
				t.Errorf("%s = %q (error %v), want %q (error %v)", c.command, text(res), res.IsError, c.want, c.isError)
			}
			if !c.isError && res.Details != nil {
				t.Errorf("details = %s, want none", res.Details)
			}
		})
	}
}

func TestBashRunsInItsDirectory(t *testing.T) {
	b := newTestBash(t)
	if got := text(run(t, b, map[string]any{"command": "pwd -P"})); got != mustRealpath(t, b.Dir)+"\n" {
		t.Errorf("pwd = %q, want %q", got, b.Dir)
	}
	b.Dir = filepath.Join(b.Dir, "gone")
	res := run(t, b, map[string]any{"command": "pwd"})
	if !res.IsError || !strings.HasPrefix(text(res), "Working directory does not exist: ") {
		t.Errorf("missing directory = %q", text(res))
	}
}

func mustRealpath(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func firstPid(t *testing.T, out string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(out, "\n", 2)[0]))
	if err != nil {
		t.Fatalf("no pid in %q", out)
	}
	return pid
}

func TestBashTimeoutKillsTheProcessGroup(t *testing.T) {
	b := newTestBash(t)
	start := time.Now()
	res := run(t, b, map[string]any{"command": "sleep 60 & echo $!; sleep 60", "timeout": 0.5})
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("timeout took %v", elapsed)
	}
	pid := firstPid(t, text(res))
	if !res.IsError || text(res) != fmt.Sprintf("%d\n\n\nCommand timed out after 0.5 seconds", pid) {
		t.Errorf("result = %q", text(res))
	}
	shelltest.WaitGone(t, 5*time.Second, pid)
}

func TestBashCancelStopsPromptly(t *testing.T) {
	b := newTestBash(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pid int
	update := func(u core.ToolUpdate) {
		if len(u.Content) > 0 && strings.Contains(u.Content[0].Text, "\n") && pid == 0 {
			pid = firstPid(t, u.Content[0].Text)
			cancel()
		}
	}
	start := time.Now()
	res := runCtx(t, ctx, b, map[string]any{"command": "sleep 60 & echo $!; sleep 60"}, update)
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("cancel took %v", elapsed)
	}
	if !res.IsError || !strings.HasSuffix(text(res), "\n\nCommand aborted") {
		t.Errorf("result = %q", text(res))
	}
	if pid == 0 {
		t.Fatal("no update with the child's pid")
	}
	shelltest.WaitGone(t, 5*time.Second, pid)
}

func TestBashKillsWhatIgnoresSIGTERM(t *testing.T) {
	b := newTestBash(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	update := func(u core.ToolUpdate) {
		if len(u.Content) > 0 && strings.Contains(u.Content[0].Text, "ready") {
			cancel()
		}
	}
	start := time.Now()
	res := runCtx(t, ctx, b, map[string]any{"command": "trap '' TERM; echo ready; sleep 60; sleep 60"}, update)
	if elapsed := time.Since(start); elapsed < bashKillGrace || elapsed > bashKillGrace+3*time.Second {
		t.Errorf("stopping took %v, want a little over %v", elapsed, bashKillGrace)
	}
	if text(res) != "ready\n\n\nCommand aborted" {
		t.Errorf("result = %q", text(res))
	}
}

func TestBashAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runCtx(t, ctx, newTestBash(t), map[string]any{"command": "echo never"}, nil)
	if !res.IsError || text(res) != "Command aborted" {
		t.Errorf("result = %q", text(res))
	}
}

// A background process that keeps the output pipe open does not hold up the
// result.
func TestBashDoesNotWaitForBackgroundHolders(t *testing.T) {
	b := newTestBash(t)
	start := time.Now()
	res := run(t, b, map[string]any{"command": "echo $$; sleep 60 & echo done"})
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("took %v", elapsed)
	}
	pgid := firstPid(t, text(res))
	syscall.Kill(-pgid, syscall.SIGKILL)
	if !strings.HasSuffix(text(res), "done\n") || res.IsError {
		t.Errorf("result = %q", text(res))
	}
}

func TestBashTruncatesToTheTailAndSavesEverything(t *testing.T) {
	b := newTestBash(t)
	res := run(t, b, map[string]any{"command": "seq 1 3000"})
	d := details[BashDetails](t, res)
	if d.Truncation == nil || d.FullOutputPath == "" {
		t.Fatalf("details = %+v", d)
	}
	// pi's numbers for the same command: 3000 lines, the last 2000 kept.
	wantHead := "1001\n1002\n"
	wantNote := "3000\n\n[Showing lines 1001-3000 of 3000. Full output: " + d.FullOutputPath + "]"
	if got := text(res); !strings.HasPrefix(got, wantHead) || !strings.HasSuffix(got, wantNote) {
		t.Errorf("text = %q", clip(got))
	}
	tr := d.Truncation
	if !tr.Truncated || tr.TruncatedBy != TruncatedByLines || tr.TotalLines != 3000 || tr.OutputLines != 2000 {
		t.Errorf("truncation = %+v", tr)
	}
	if filepath.Dir(d.FullOutputPath) != b.TempDir || !regexp.MustCompile(`^cairn-bash-[0-9a-f]{16}\.log$`).MatchString(filepath.Base(d.FullOutputPath)) {
		t.Errorf("full output path = %s", d.FullOutputPath)
	}
	var all strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&all, "%d\n", i)
	}
	if got := readBack(t, d.FullOutputPath); got != all.String() {
		t.Errorf("full output file has %d bytes, want %d", len(got), all.Len())
	}
}

func TestBashLongLastLine(t *testing.T) {
	b := newTestBash(t)
	res := run(t, b, map[string]any{"command": "head -c 60000 /dev/zero | tr '\\0' a"})
	d := details[BashDetails](t, res)
	want := strings.Repeat("a", DefaultMaxBytes) + "\n\n[Showing last 50.0KB of line 1 (line is 58.6KB). Full output: " + d.FullOutputPath + "]"
	if got := text(res); got != want {
		t.Errorf("text = %q", clip(got))
	}
	if !d.Truncation.LastLinePartial || d.Truncation.TruncatedBy != TruncatedByBytes || len(readBack(t, d.FullOutputPath)) != 60000 {
		t.Errorf("truncation = %+v", d.Truncation)
	}
}

func TestBashFailureKeepsTruncationDetails(t *testing.T) {
	b := newTestBash(t)
	res := run(t, b, map[string]any{"command": "seq 1 2500; exit 2"})
	d := details[BashDetails](t, res)
	if !res.IsError || d.FullOutputPath == "" || !strings.HasSuffix(text(res), "Full output: "+d.FullOutputPath+"]\n\nCommand exited with code 2") {
		t.Errorf("result = %q", clip(text(res)))
	}
}

func TestBashStreamsThrottledUpdates(t *testing.T) {
	b := newTestBash(t)
	type stamped struct {
		at   time.Time
		text string
		det  string
	}
	var updates []stamped
	update := func(u core.ToolUpdate) {
		s := stamped{at: time.Now(), det: string(u.Details)}
		if len(u.Content) > 0 {
			s.text = u.Content[0].Text
		}
		updates = append(updates, s)
	}
	res := runCtx(t, context.Background(), b, map[string]any{"command": "for i in 1 2 3 4; do echo $i; sleep 0.15; done"}, update)
	if text(res) != "1\n2\n3\n4\n" {
		t.Fatalf("result = %q", text(res))
	}
	if len(updates) < 3 {
		t.Fatalf("got %d updates, want at least 3: %+v", len(updates), updates)
	}
	if updates[0].text != "" || updates[0].det != "" {
		t.Errorf("first update = %+v, want an empty one before the command runs", updates[0])
	}
	if last := updates[len(updates)-1]; last.text != "1\n2\n3\n4\n" || last.det != "{}" {
		t.Errorf("last update = %+v", last)
	}
	for i := 2; i < len(updates)-1; i++ {
		if gap := updates[i].at.Sub(updates[i-1].at); gap < bashUpdateInterval-5*time.Millisecond {
			t.Errorf("updates %d and %d only %v apart", i-1, i, gap)
		}
	}
}

func TestBashFastOutputIsThrottled(t *testing.T) {
	b := newTestBash(t)
	n := 0
	res := runCtx(t, context.Background(), b, map[string]any{"command": "for i in $(seq 1 20000); do echo line $i; done"},
		func(core.ToolUpdate) { n++ })
	if res.IsError {
		t.Fatal(text(res))
	}
	d := details[BashDetails](t, res)
	if d.Truncation == nil || d.Truncation.TotalLines != 20000 {
		t.Errorf("truncation = %+v", d.Truncation)
	}
	if n > 200 {
		t.Errorf("%d updates for a short burst of output", n)
	}
}

func TestBashHasNoControllingTerminal(t *testing.T) {
	res := run(t, newTestBash(t), map[string]any{"command": "exec 3</dev/tty && echo has a tty || echo no tty"})
	if !strings.HasSuffix(text(res), "no tty\n") {
		t.Errorf("result = %q", text(res))
	}
}
