package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The headless build (headless.go) is what make build installs as cairn;
// these tests build it and the full build as the Makefile does and drive
// them as processes.

// tuiLibraries are the packages the headless build must not link: their
// initialisers are what made every mode start slowly.
var tuiLibraries = []string{
	"github.com/alecthomas/chroma/v2",
	"charm.land/glamour/v2",
	"charm.land/bubbletea/v2",
	"charm.land/lipgloss/v2",
	"github.com/yuin/goldmark",
	"github.com/microcosm-cc/bluemonday",
	"github.com/atotto/clipboard",
	"github.com/cairn-dev/cairn/tui",
	"github.com/cairn-dev/cairn/themes",
	"github.com/cairn-dev/cairn/core/export",
}

func TestHeadlessBuildLinksNoTUILibraries(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "headless", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, lib := range tuiLibraries {
			if dep == lib || strings.HasPrefix(dep, lib+"/") {
				t.Errorf("the headless build links %s", dep)
			}
		}
	}
}

// buildPair builds cairn (headless) and cairn-tui (full) into one
// directory, as make build does, and returns the directory.
func buildPair(t *testing.T, withTUI bool) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	dir := t.TempDir()
	builds := [][]string{{"build", "-tags", "headless", "-o", filepath.Join(dir, "cairn"), "."}}
	if withTUI {
		builds = append(builds, []string{"build", "-o", filepath.Join(dir, tuiFileName()), "."})
	}
	for _, args := range builds {
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir
}

func tuiFileName() string {
	if runtime.GOOS == "windows" {
		return "cairn-tui.exe"
	}
	return "cairn-tui"
}

// ptyRun starts bin in a fresh pseudo-terminal and collects what it
// writes there.
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	more chan struct{}
	done chan struct{}
}

func startInPTY(t *testing.T, dir string, env []string, bin string, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, tty: tty, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			select {
			case r.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tty.Close()
		<-r.done
	})
	return r
}

func (r *ptyRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitFor waits until the terminal has shown want, or the output ends, or
// the time limit passes.
func (r *ptyRun) waitFor(t *testing.T, want string) {
	t.Helper()
	limit := time.NewTimer(30 * time.Second)
	defer limit.Stop()
	for !strings.Contains(r.text(), want) {
		select {
		case <-r.more:
		case <-r.done:
			if !strings.Contains(r.text(), want) {
				t.Fatalf("the terminal never showed %q; it showed:\n%q", want, r.text())
			}
			return
		case <-limit.C:
			t.Fatalf("the terminal did not show %q within 30s; it showed:\n%q", want, r.text())
		}
	}
}

func testEnv(t *testing.T, script string) []string {
	return append(os.Environ(), "CAIRN_DIR="+t.TempDir(), "CAIRN_FAUX_SCRIPT="+script, "TERM=xterm-256color")
}

// TestHeadlessBuildHandsTheTUIOver runs the headless cairn in a real
// terminal: the full-screen interface comes up, drawn by cairn-tui, which
// has taken the process's place (same pid) and names the cairn that was
// typed when it says how to continue.
func TestHeadlessBuildHandsTheTUIOver(t *testing.T) {
	dir := buildPair(t, true)
	script := writeScript(t, `{"responses": [{"text": "handed over"}]}`)
	r := startInPTY(t, t.TempDir(), testEnv(t, script), filepath.Join(dir, "cairn"), "--provider", "faux")
	r.waitFor(t, "Ask anything")
	if runtime.GOOS == "linux" {
		exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(r.cmd.Process.Pid), "exe"))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(exe) != "cairn-tui" {
			t.Errorf("the process runs %s, not cairn-tui", exe)
		}
	}
	if _, err := r.tty.Write([]byte("hi\r")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "handed over")
	if _, err := r.tty.Write([]byte{4}); err != nil { // ctrl+d on an empty editor quits
		t.Fatal(err)
	}
	r.waitFor(t, "Continue it with:")
	want := filepath.Join(dir, "cairn") + " --continue"
	if got := r.text(); !strings.Contains(got, want) {
		t.Errorf("the continue line does not name the headless cairn (%s):\n%q", want, got[strings.LastIndex(got, "Session saved"):])
	}
}

// TestHeadlessBuildWithoutTheTUISaysWhatToDo: a headless cairn alone
// says where it looked for cairn-tui and how to get it, and still runs the
// headless modes.
func TestHeadlessBuildWithoutTheTUISaysWhatToDo(t *testing.T) {
	dir := buildPair(t, false)
	script := writeScript(t, `{"responses": [{"text": "still here"}]}`)
	env := testEnv(t, script)
	r := startInPTY(t, t.TempDir(), env, filepath.Join(dir, "cairn"), "--provider", "faux")
	<-r.done
	err := r.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
		t.Errorf("exit: %v, want status %d", err, exitFailure)
	}
	for _, want := range []string{"headless build", filepath.Join(dir, "cairn-tui"), "make build"} {
		if !strings.Contains(r.text(), want) {
			t.Errorf("the message does not say %q:\n%s", want, r.text())
		}
	}
	cmd := exec.Command(filepath.Join(dir, "cairn"), "--provider", "faux", "-p", "hi")
	cmd.Env, cmd.Dir = env, t.TempDir()
	if out, err := cmd.Output(); err != nil || string(out) != "still here\n" {
		t.Errorf("print mode without cairn-tui: %v, %q", err, out)
	}
}

// TestHeadlessBuildExports: --export and rpc's export_html in the
// headless build write the page through cairn-tui.
func TestHeadlessBuildExports(t *testing.T) {
	dir := buildPair(t, true)
	script := writeScript(t, `{"responses": [{"text": "answer to **export**"}]}`)
	env, work := testEnv(t, script), t.TempDir()

	cmd := exec.Command(filepath.Join(dir, "cairn"), "--mode", "rpc", "--provider", "faux")
	cmd.Env, cmd.Dir = env, work
	stdin, stdout := startPiped(t, cmd)
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	until := func(match func(map[string]any) bool) map[string]any {
		t.Helper()
		for lines.Scan() {
			var frame map[string]any
			if json.Unmarshal(lines.Bytes(), &frame) == nil && match(frame) {
				return frame
			}
		}
		t.Fatalf("cairn's output ended: %v", lines.Err())
		return nil
	}
	send := func(s string) {
		if _, err := stdin.Write([]byte(s + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"type":"prompt","message":"hi"}`)
	until(func(f map[string]any) bool { return f["type"] == "agent_end" })
	send(`{"id":"x","type":"export_html","outputPath":"page.html"}`)
	res := until(func(f map[string]any) bool { return f["id"] == "x" })
	data, _ := res["data"].(map[string]any)
	page := filepath.Join(work, "page.html")
	if res["success"] != true || data["path"] != page {
		t.Fatalf("export_html: %v", res)
	}
	html, err := os.ReadFile(page)
	if err != nil || !bytes.Contains(html, []byte("<strong>export</strong>")) || !bytes.Contains(html, []byte("faux/faux-1")) {
		t.Fatalf("the page (%v) lacks the answer or the model:\n%.2000s", err, html)
	}
	send(`{"id":"y","type":"export_html","outputPath":"no-such-dir/page.html"}`)
	res = until(func(f map[string]any) bool { return f["id"] == "y" })
	if msg, _ := res["error"].(string); res["success"] != false || !strings.Contains(msg, "no-such-dir") || !strings.Contains(msg, "no such file or directory") {
		t.Errorf("a failed export_html: %v", res)
	}

	sessions, _ := filepath.Glob(filepath.Join(envValue(env, "CAIRN_DIR"), "sessions", "*", "*.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	exp := exec.Command(filepath.Join(dir, "cairn"), "--export", sessions[0], "cli.html")
	exp.Env, exp.Dir = env, work
	out, err := exp.Output()
	if want := filepath.Join(work, "cli.html") + "\n"; err != nil || string(out) != want {
		t.Errorf("--export: %v, printed %q, want %q", err, out, want)
	}
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// startPiped starts cmd with pipes to its stdin and from its stdout.
func startPiped(t testing.TB, cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdin, stdout
}
