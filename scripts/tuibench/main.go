// Command tuibench is the measuring half of scripts/bench-tui.sh: it starts an
// agent in tmux, watches its screen, reads its CPU and memory from /proc,
// writes the sessions it resumes, and prints the report.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fatal(errors.New("usage: tuibench stamp|run|session|script|fakellm|report|soak|soak-report ..."))
	}
	var err error
	switch os.Args[1] {
	case "stamp":
		err = stamp(os.Args[2], os.Args[3:])
	case "run":
		err = runAgent(os.Args[2:])
	case "session":
		err = writeSession(os.Args[2:])
	case "script":
		err = setScript(os.Args[2:])
	case "fakellm":
		err = fakeLLM(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	case "soak":
		err = soak(os.Args[2:])
	case "soak-report":
		err = soakReport(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "tuibench: %v\n", err)
	os.Exit(1)
}

// stamp writes the wall-clock time in nanoseconds to file, then becomes
// the agent (same pid, so tmux's pane_pid is the agent's).
func stamp(file string, argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o644); err != nil {
		return err
	}
	return syscall.Exec(path, argv, os.Environ())
}

// result is one run's measurements; zero fields were not measured.
type result struct {
	Agent       string  `json:"agent"`
	Run         int     `json:"run"`
	FrameMs     float64 `json:"frameMs,omitempty"`
	RSSKiB      float64 `json:"rssKiB,omitempty"`
	StreamCPUS  float64 `json:"streamCpuS,omitempty"`
	StreamWallS float64 `json:"streamWallS,omitempty"`
	// MarkdownCPUS is the CPU for the markdown answer that follows.
	MarkdownCPUS float64 `json:"markdownCpuS,omitempty"`
	ResumeMs     float64 `json:"resumeMs,omitempty"`
	KeyCPUMs     float64 `json:"keyCpuMs,omitempty"`
	EchoMs       float64 `json:"echoMs,omitempty"`
	// BigResumeMs and BigRSSKiB are for the large session (bash results).
	BigResumeMs float64 `json:"bigResumeMs,omitempty"`
	// BigLiveMs is when the prompt takes keys: cairn's preview of the
	// session's end is replaced by the session read whole (the footer
	// no longer says it is reading). For pi, BigResumeMs.
	BigLiveMs float64 `json:"bigLiveMs,omitempty"`
	BigRSSKiB float64 `json:"bigRssKiB,omitempty"`
	// BigFailed is a large resume that was not on screen in time.
	BigFailed bool `json:"bigFailed,omitempty"`
}

// tmux runs tmux commands against one private server.
type tmux struct{ socket, conf string }

func (t tmux) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-u", "-S", t.socket, "-f", t.conf}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// watcher follows a pane's output through a control-mode client.
type watcher struct {
	t      tmux
	target string
	events chan time.Time // arrival time of each %output notification
	last   time.Time      // the latest arrival seen by drain
	cmd    *exec.Cmd
}

func watch(t tmux, target string) (*watcher, error) {
	cmd := exec.Command("tmux", "-u", "-S", t.socket, "-f", t.conf, "-C", "attach", "-t", target)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	_ = stdin // kept open: control mode ends when its input does
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &watcher{t: t, target: target, events: make(chan time.Time, 1<<16), cmd: cmd}
	attached := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		first := true
		for sc.Scan() {
			now := time.Now()
			if first {
				close(attached)
				first = false
			}
			if strings.HasPrefix(sc.Text(), "%output ") {
				select {
				case w.events <- now:
				default:
				}
			}
		}
	}()
	select {
	case <-attached:
	case <-time.After(10 * time.Second):
		return nil, errors.New("the tmux control client did not attach")
	}
	return w, nil
}

// drain takes every notification received so far.
func (w *watcher) drain() {
	for {
		select {
		case t := <-w.events:
			w.last = t
		default:
			return
		}
	}
}

// waitScreen captures the screen after each burst of output until ok
// accepts it, and returns the arrival time of the last output received
// before that capture returned.
func (w *watcher) waitScreen(what string, timeout time.Duration, ok func(string) bool) (time.Time, error) {
	deadline := time.After(timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var screen string
	for {
		w.drain()
		s, err := w.t.run("capture-pane", "-p", "-t", w.target)
		if err != nil {
			return time.Time{}, err
		}
		screen = s
		w.drain()
		if ok(s) {
			return w.last, nil
		}
		select {
		case t := <-w.events:
			w.last = t
		case <-tick.C:
		case <-deadline:
			return time.Time{}, fmt.Errorf("%s: not on screen after %s; last screen:\n%s", what, timeout, screen)
		}
	}
}

func (w *watcher) close() {
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
}

// pane is an agent started in a private tmux server at 120x40, its output
// watched.
type pane struct {
	t     tmux
	w     *watcher
	dir   string
	start string // the file the wrapper writes the spawn time to
	agent int    // the agent's pid, once pid has read it
}

// startPane starts argv in cwd in a fresh tmux server under work.
func startPane(work, cwd string, argv []string) (_ *pane, err error) {
	dir, err := os.MkdirTemp(work, "tmux")
	if err != nil {
		return nil, err
	}
	p := &pane{dir: dir, t: tmux{socket: filepath.Join(dir, "s"), conf: filepath.Join(dir, "conf")}, start: filepath.Join(dir, "start")}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	conf := "set -g status off\nset -g default-size 120x40\n" +
		"set -g default-terminal tmux-256color\nset -g escape-time 0\nset -g extended-keys on\n"
	if err := os.WriteFile(p.t.conf, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	// The pane waits for Enter so that the control client is attached
	// before the agent starts; then the wrapper stamps the time and execs.
	quoted := []string{"exec", shq(self), "stamp", shq(p.start)}
	for _, a := range argv {
		quoted = append(quoted, shq(a))
	}
	if _, err := p.t.run("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-c", cwd,
		"-e", "COLORTERM=truecolor", "-e", "LANG=C.UTF-8",
		"read _; "+strings.Join(quoted, " ")); err != nil {
		return nil, err
	}
	// The pane's shell execs the wrapper, which execs the agent: one pid,
	// known now so that close can end the agent whatever happens.
	if _, err := p.pid(); err != nil {
		return nil, err
	}
	if p.w, err = watch(p.t, "bench"); err != nil {
		return nil, err
	}
	if _, err := p.t.run("send-keys", "-t", "bench", "Enter"); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pane) close() {
	if p.w != nil {
		p.w.close()
	}
	_, _ = p.t.run("kill-server")
	// An agent busy resuming may outlive the hang-up (pi 0.87.1 does).
	if p.agent > 0 && syscall.Kill(p.agent, syscall.SIGTERM) == nil {
		for range 20 {
			if syscall.Kill(p.agent, 0) != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		_ = syscall.Kill(p.agent, syscall.SIGKILL)
	}
	_ = os.RemoveAll(p.dir)
}

// sinceStart is the time from the agent's spawn to at, in ms.
func (p *pane) sinceStart(at time.Time) (float64, error) {
	b, err := os.ReadFile(p.start)
	if err != nil {
		return 0, err
	}
	startNs, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return 0, err
	}
	return float64(at.UnixNano()-startNs) / 1e6, nil
}

// pid is the agent's process id (the pane's: the wrapper execs it).
func (p *pane) pid() (string, error) {
	out, err := p.t.run("display-message", "-p", "-t", "bench", "#{pane_pid}")
	pid := strings.TrimSpace(out)
	if err == nil {
		p.agent, err = strconv.Atoi(pid)
	}
	return pid, err
}

// send types text (literally) and then Enter.
func (p *pane) send(text string) error {
	if _, err := p.t.run("send-keys", "-t", "bench", "-l", text); err != nil {
		return err
	}
	_, err := p.t.run("send-keys", "-t", "bench", "Enter")
	return err
}

// measureKeys types n keys one at a time, each waited for on screen, and
// returns the CPU per key (ms, from schedstat) and the median echo (ms).
func (p *pane) measureKeys(pid string, n int) (cpuMs, echoMs float64, err error) {
	before, err := schedCPU(pid)
	if err != nil {
		return 0, 0, err
	}
	typed := ""
	var echoes []float64
	for i := range n {
		k := string(rune('a' + i%26))
		typed += k
		sent := time.Now()
		if _, err := p.t.run("send-keys", "-t", "bench", "-l", k); err != nil {
			return 0, 0, err
		}
		shown, err := p.w.waitScreen("key "+k, 30*time.Second, func(s string) bool { return strings.Contains(s, typed) })
		if err != nil {
			return 0, 0, err
		}
		echoes = append(echoes, float64(shown.Sub(sent).Microseconds())/1000)
	}
	sort.Float64s(echoes)
	after, err := schedCPU(pid)
	if err != nil {
		return 0, 0, err
	}
	return (after - before) / float64(n) * 1000, echoes[len(echoes)/2], nil
}

// runAgent starts one agent in a fresh tmux server and measures it.
func runAgent(args []string) error {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	agent := fl.String("agent", "", "agent name for the results")
	runN := fl.Int("run", 0, "run number")
	work := fl.String("work", "", "working directory for tmux files")
	cwd := fl.String("cwd", "", "the agent's working directory")
	marker := fl.String("marker", "", "text of the footer that marks a frame")
	stream := fl.Bool("stream", false, "measure the streamed answers (tokens, then markdown)")
	ready := fl.String("ready", "", "text that shows the resumed session is on screen")
	keys := fl.Int("keys", 0, "keystrokes to measure")
	big := fl.Bool("big", false, "the resumed session is the large one: record its resume time and peak RSS only")
	timeout := fl.Duration("timeout", 120*time.Second, "how long to wait for the first frame and for the resumed session")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *big && (*ready == "" || *keys > 0 || *stream) {
		return errors.New("-big needs -ready and neither -keys nor -stream")
	}
	p, err := startPane(*work, *cwd, fl.Args())
	if err != nil {
		return err
	}
	defer p.close()
	w := p.w
	res := result{Agent: *agent, Run: *runN}
	frameAt, err := w.waitScreen("the footer", *timeout, func(s string) bool { return strings.Contains(s, *marker) })
	if err != nil {
		return err
	}
	frameMs, err := p.sinceStart(frameAt)
	if err != nil {
		return err
	}
	pid, err := p.pid()
	if err != nil {
		return err
	}
	if *big {
		readyAt, err := w.waitScreen("the resumed session", *timeout, func(s string) bool { return strings.Contains(s, *ready) })
		if err != nil {
			return err
		}
		if res.BigResumeMs, err = p.sinceStart(readyAt); err != nil {
			return err
		}
		liveAt, err := w.waitScreen("the whole session", *timeout, func(s string) bool {
			return strings.Contains(s, *ready) && !strings.Contains(s, "reading the session…")
		})
		if err != nil {
			return err
		}
		if res.BigLiveMs, err = p.sinceStart(liveAt); err != nil {
			return err
		}
		time.Sleep(time.Second) // let resuming settle before reading the peak
		if res.BigRSSKiB, err = vmHWM(pid); err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	if *keys == 0 {
		res.FrameMs = frameMs
		time.Sleep(time.Second) // let start-up work settle before reading the peak
		if res.RSSKiB, err = vmHWM(pid); err != nil {
			return err
		}
	}
	if *stream {
		before, err := statCPU(pid)
		if err != nil {
			return err
		}
		t0 := time.Now()
		if err := p.send("Say tok many times."); err != nil {
			return err
		}
		if _, err := w.waitScreen("the end of the answer", 120*time.Second, func(s string) bool { return strings.Contains(s, "END-OF-ANSWER") }); err != nil {
			return err
		}
		after, err := statCPU(pid)
		if err != nil {
			return err
		}
		res.StreamCPUS = after - before
		res.StreamWallS = time.Since(t0).Seconds()

		before = after
		if err := p.send("Write the " + markdownAsk + "."); err != nil {
			return err
		}
		if _, err := w.waitScreen("the end of the markdown answer", 120*time.Second, func(s string) bool { return strings.Contains(s, "END-OF-MARKDOWN") }); err != nil {
			return err
		}
		if after, err = statCPU(pid); err != nil {
			return err
		}
		res.MarkdownCPUS = after - before
	}
	if *keys > 0 {
		readyAt, err := w.waitScreen("the resumed session", *timeout, func(s string) bool { return strings.Contains(s, *ready) })
		if err != nil {
			return err
		}
		if res.ResumeMs, err = p.sinceStart(readyAt); err != nil {
			return err
		}
		time.Sleep(time.Second) // let resuming settle before measuring keys
		if res.KeyCPUMs, res.EchoMs, err = p.measureKeys(pid, *keys); err != nil {
			return err
		}
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// vmHWM is the process's peak resident set in KiB.
func vmHWM(pid string) (float64, error) { return procStatus(pid, "VmHWM:") }

// statCPU is utime+stime of the whole process in seconds (10 ms ticks).
func statCPU(pid string) (float64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100, nil
}

// schedCPU is the time the process's threads have spent on a CPU, in
// seconds, from /proc/<pid>/task/*/schedstat (nanoseconds).
func schedCPU(pid string) (float64, error) {
	tasks, err := filepath.Glob("/proc/" + pid + "/task/*/schedstat")
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no schedstat for %s", pid)
	}
	var ns float64
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread has exited
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			v, _ := strconv.ParseFloat(f[0], 64)
			ns += v
		}
	}
	return ns / 1e9, nil
}
