package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

// waitTimeout bounds every wait for the screen or the fake server.
const waitTimeout = 15 * time.Second

// pollInterval is how often a wait reads the screen again.
const pollInterval = 15 * time.Millisecond

// approvalGuard is how long cairn's approval prompt ignores keys after it
// appears (tui.Options.ApprovalGuard's default): a key typed just before the
// prompt showed must not answer it. A test that answers a prompt waits this
// long after seeing it, plus a margin; see answerApproval.
const approvalGuard = 300 * time.Millisecond

// tmuxServer is a private tmux server (its own socket in a temporary
// directory) whose panes run with a small, fixed environment.
type tmuxServer struct {
	t      testing.TB
	dir    string // the socket, the configuration and exit status files
	socket string
	conf   string
	env    []string
}

// The terminals cairn may be told it runs in. Under tmux-256color cairn
// asks tmux for true-colour support, which a server with no client attached
// cannot confirm, so it draws with 256 colours; under xterm-256color with
// COLORTERM=truecolor it draws in true colour, as in most terminals today.
const (
	tmuxTerminal  = "tmux-256color"
	xtermTerminal = "xterm-256color"
)

// startTmux starts nothing yet: the server starts with its first session
// and is killed when the test ends. terminal is the TERM of its panes.
func startTmux(t testing.TB, terminal string, env []string) *tmuxServer {
	t.Helper()
	requireTmux(t)
	// A short directory: unix socket paths are limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "cairn-e2e-tmux")
	if err != nil {
		t.Fatal(err)
	}
	s := &tmuxServer{t: t, dir: dir, socket: filepath.Join(dir, "sock"), conf: filepath.Join(dir, "tmux.conf"), env: env}
	// No status line (the pane is the whole window), and dead panes stay so
	// that what cairn prints as it exits can be read.
	conf := strings.Join([]string{
		"set -g status off",
		"set -g remain-on-exit on",
		"set -g default-terminal " + terminal,
		"set -g escape-time 0",
		"set -g history-limit 2000",
	}, "\n") + "\n"
	if err := os.WriteFile(s.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = s.run("kill-server")
		os.RemoveAll(dir)
	})
	return s
}

// requireTmux skips the test when tmux is missing, except under CI, where
// a missing tmux is a broken setup and fails the test.
func requireTmux(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; CI must install it (apt-get install tmux)")
		}
		t.Skip("tmux is not installed")
	}
}

// run runs one tmux command against this server.
func (s *tmuxServer) run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-u", "-S", s.socket, "-f", s.conf}, args...)...)
	cmd.Env = s.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func (s *tmuxServer) must(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// pane is one tmux session with a single pane running one program.
type pane struct {
	t      testing.TB
	s      *tmuxServer
	target string
	// statusFile receives the program's exit status when it ends. tmux's
	// own #{pane_dead_status} is not reliable: tmux 3.3 sometimes leaves
	// the pane's process unreaped for seconds.
	statusFile string
}

// start runs argv in a new session of width x height cells, in dir.
func (s *tmuxServer) start(name string, width, height int, dir string, argv ...string) *pane {
	s.t.Helper()
	p := &pane{t: s.t, s: s, target: name, statusFile: filepath.Join(s.dir, name+".status")}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	// The shell writes the status to a temporary name and renames it, so
	// a reader never sees half of it.
	tmp := shellQuote(p.statusFile + ".tmp")
	command := fmt.Sprintf("%s; echo $? > %s && mv %s %s", strings.Join(quoted, " "), tmp, tmp, shellQuote(p.statusFile))
	s.must("new-session", "-d", "-s", name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir, command)
	return p
}

// shellQuote quotes a word for sh, which tmux runs the command with.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// screen is the pane's visible text, one string per row, without colours.
func (p *pane) screen() string {
	p.t.Helper()
	return p.s.must("capture-pane", "-p", "-t", p.target)
}

// screenANSI is the visible text with colours and attributes as SGR
// escapes (for screenshots).
func (p *pane) screenANSI() string {
	p.t.Helper()
	return p.s.must("capture-pane", "-p", "-e", "-t", p.target)
}

// history is everything the pane has shown on its main screen, the
// scrolled-off rows included, with wrapped lines joined.
func (p *pane) history() string {
	p.t.Helper()
	return p.s.must("capture-pane", "-p", "-J", "-S", "-", "-t", p.target)
}

// waitExit waits until the program has exited and returns its exit status
// and the whole history of its main screen (what it printed after leaving
// the alternate screen).
func (p *pane) waitExit() (status, history string) {
	p.t.Helper()
	p.waitFor("cairn to exit", func(string) bool {
		var done bool
		done, status = p.exited()
		return done
	})
	return status, p.history()
}

// styledScreen is the visible screen as cells with their styles.
func (p *pane) styledScreen() *termimage.Screen {
	p.t.Helper()
	s, err := termimage.ParseString(p.screenANSI(), 0, 0)
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// keys sends key names as tmux knows them (Enter, Escape, C-c, Up, ...).
func (p *pane) keys(keys ...string) {
	p.t.Helper()
	p.s.must(append([]string{"send-keys", "-t", p.target}, keys...)...)
}

// typeText types text literally, as if pasted key by key.
func (p *pane) typeText(text string) {
	p.t.Helper()
	p.s.must("send-keys", "-t", p.target, "-l", text)
}

// resize changes the window's size, as a terminal emulator's resize does.
func (p *pane) resize(width, height int) {
	p.t.Helper()
	p.s.must("resize-window", "-t", p.target, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height))
}

// exited reports whether the program has ended, and its exit status.
func (p *pane) exited() (bool, string) {
	b, err := os.ReadFile(p.statusFile)
	if err != nil {
		return false, ""
	}
	return true, strings.TrimSpace(string(b))
}

// waitFor polls the screen until ok accepts it, and fails the test with
// the last screen when waitTimeout passes first. Polling the screen is how
// a terminal test waits for an event: the program draws, then we see it.
func (p *pane) waitFor(what string, ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			if done, status := p.exited(); done {
				p.t.Fatalf("waiting for %s: cairn exited (status %s); last screen:\n%s", what, status, frame(s))
			}
			p.t.Fatalf("waiting for %s: not on screen after %s; last screen:\n%s", what, waitTimeout, frame(s))
		}
		<-tick.C
	}
}

// waitText waits until every one of texts is on the screen.
func (p *pane) waitText(texts ...string) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q", texts), func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// waitGone waits until text is no longer on the screen.
func (p *pane) waitGone(text string) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q to go away", text), func(s string) bool { return !strings.Contains(s, text) })
}

// answerApproval waits for the approval prompt (a line containing prompt),
// then waits out cairn's input guard before pressing key. The guard exists
// so that a key typed just before the prompt appeared cannot answer it; a
// person sees the prompt before answering, and so does this helper, but it
// must also let the guard's time pass, measured from when the prompt was
// first seen (which is after it appeared).
func (p *pane) answerApproval(prompt, key string) {
	p.t.Helper()
	p.waitText(prompt)
	<-time.After(approvalGuard + 150*time.Millisecond)
	p.keys(key)
	p.waitGone(prompt)
}

// widest is the width in cells of the widest row of a screen.
func widest(screen string) int {
	w := 0
	for _, l := range strings.Split(screen, "\n") {
		w = max(w, runewidth.StringWidth(l))
	}
	return w
}

// frame draws a screen inside a border for failure messages, so trailing
// blanks and empty rows are visible.
func frame(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	var b strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&b, "%2d|%s\n", i, r)
	}
	return b.String()
}
