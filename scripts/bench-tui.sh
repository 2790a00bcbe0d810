#!/usr/bin/env bash
# bench-tui.sh - cairn's full-screen TUI side by side with pi's interactive
# mode (pi 0.87.1, npm @earendil-works/pi-coding-agent, installed with the
# Node 22 it needs by ../shared/tools/pi-install.sh; PI_VERSION=0.73.1 runs
# the older @mariozechner/pi-coding-agent instead), whole processes under
# tmux at 120x40, same fake LLM, same machine, one run.
#
#   make bench-tui                 # or: RUNS=9 scripts/bench-tui.sh
#   AGENTS=cairn scripts/bench-tui.sh    # one side only (AGENTS="cairn pi")
#   CAIRN_BIN=bin/cairn scripts/bench-tui.sh   # a cairn built beforehand
#
# Measures, as medians over RUNS runs (default 5, after one discarded
# warm-up run per agent; cairn and pi runs alternate):
#   first frame   spawn -> the first frame showing the footer (the model
#                 name). The pane runs a tiny wrapper that writes the time
#                 and execs the agent; a tmux control-mode client
#                 timestamps every %output notification as it arrives, and
#                 after each burst the screen is captured: the frame time is
#                 that of the last output received before the capture that
#                 first shows the footer (accurate to a few ms).
#   peak RSS      VmHWM from /proc/<pid>/status, 1 s after the first frame.
#   stream CPU    utime+stime (/proc/<pid>/stat) from just before the prompt
#                 is typed to the moment the end of the answer is on screen,
#                 for 4,000 tokens ("tok ") streamed at 5 ms per token.
#   keystroke CPU the agent resumes a 2,000-exchange session (generated in
#                 pi's session format, written where each agent looks, and
#                 resumed with --continue); once its last answer is on screen
#                 and 1 s has passed, 50 keys are typed one at a time, each
#                 waited for on screen. CPU time is the sum of
#                 /proc/<pid>/task/*/schedstat (nanoseconds; the 10 ms ticks
#                 of /proc/<pid>/stat are too coarse for this) over the 50
#                 keys, divided by 50.
#   keystroke echo  in the same run, the median over the 50 keys of the
#                 time from sending the key (tmux send-keys) to the output
#                 that put it on screen; the floor is tmux's own round trip.
# and prints a table with cairn/pi ratios and the targets.
#
# The fake LLM is ../shared/tools/fakellm.js (CAIRN_SHARED names another
# shared/) when node is installed, else a small one built into the driver.
# pi 0.87.1 comes from ../shared/tools/pi-install.sh (once, into
# ${PI_CACHE:-~/.cache/cairn-pi}); pi 0.73.1 is the copy
# rpcmode/pi/testdata/rpcclient installs (npm ci, once); with no node or
# npm, pi's column is left out and the table says why. The
# measuring driver is a Go program written out and built below; it needs
# only the standard library. tmux is required (apt-get install tmux).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

RUNS=${RUNS:-5}
PI_VERSION=${PI_VERSION:-0.87.1}
SHARED=${CAIRN_SHARED:-$repo/../shared}
RPCCLIENT=$repo/rpcmode/pi/testdata/rpcclient
TOKENS=4000
TOKEN_MS=5
EXCHANGES=2000
KEYS=50

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-tui: $*"; exit 1; }

[ "$RUNS" -ge 1 ] 2>/dev/null || die "RUNS must be a positive number"
[ -r /proc/self/stat ] || die "need Linux /proc"
command -v tmux >/dev/null || die "need tmux (apt-get install tmux)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || die "need go"

# pi, from the rpcclient test's install, when node and npm are here.
PI=""
pi_missing=""
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  pi_missing="node and npm are not installed"
elif [ "$PI_VERSION" != 0.73.1 ]; then
  if [ -x "$SHARED/tools/pi-install.sh" ]; then
    say "pi $PI_VERSION: $SHARED/tools/pi-install.sh"
    PI=$(PI_VERSION=$PI_VERSION "$SHARED/tools/pi-install.sh") || { pi_missing="pi-install.sh failed"; PI=""; }
  else
    pi_missing="$SHARED/tools/pi-install.sh is missing (set CAIRN_SHARED to the shared/ directory)"
  fi
else
  pi_pkg=$RPCCLIENT/node_modules/@mariozechner/pi-coding-agent/package.json
  if [ "$(node -p "try{require('$pi_pkg').version}catch{''}" 2>/dev/null)" != "$PI_VERSION" ]; then
    say "installing pi $PI_VERSION into $RPCCLIENT (npm ci)"
    npm ci --prefix "$RPCCLIENT" --ignore-scripts --no-audit --no-fund --silent >&2 || pi_missing="npm ci in $RPCCLIENT failed"
  fi
  if [ -z "$pi_missing" ]; then
    PI=$RPCCLIENT/node_modules/.bin/pi
    [ -x "$PI" ] || { pi_missing="pi is not at $PI"; PI=""; }
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-tui.XXXXXX")
work=$(cd "$work" && pwd -P)
fake_pid=""
cleanup() {
  if [ -n "$fake_pid" ]; then kill "$fake_pid" 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# write_driver FILE: the measuring driver, a Go program (standard library
# only) kept in this script so that the bench is one file.
write_driver() {
  cat >"$1" <<'GO'
// tuibench is the measuring half of scripts/bench-tui.sh: it starts an
// agent in tmux, watches its screen, reads its CPU and memory from /proc,
// writes the sessions it resumes, and prints the report.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fatal(errors.New("usage: tuibench stamp|run|session|script|fakellm|report ..."))
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
	ResumeMs    float64 `json:"resumeMs,omitempty"`
	KeyCPUMs    float64 `json:"keyCpuMs,omitempty"`
	EchoMs      float64 `json:"echoMs,omitempty"`
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

// runAgent starts one agent in a fresh tmux server and measures it.
func runAgent(args []string) error {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	agent := fl.String("agent", "", "agent name for the results")
	runN := fl.Int("run", 0, "run number")
	work := fl.String("work", "", "working directory for tmux files")
	cwd := fl.String("cwd", "", "the agent's working directory")
	marker := fl.String("marker", "", "text of the footer that marks a frame")
	stream := fl.Bool("stream", false, "measure the streamed answer")
	ready := fl.String("ready", "", "text that shows the resumed session is on screen")
	keys := fl.Int("keys", 0, "keystrokes to measure")
	if err := fl.Parse(args); err != nil {
		return err
	}
	argv := fl.Args()
	dir, err := os.MkdirTemp(*work, "tmux")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	t := tmux{socket: filepath.Join(dir, "s"), conf: filepath.Join(dir, "conf")}
	conf := "set -g status off\nset -g default-size 120x40\n" +
		"set -g default-terminal tmux-256color\nset -g escape-time 0\nset -g extended-keys on\n"
	if err := os.WriteFile(t.conf, []byte(conf), 0o644); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	stampFile := filepath.Join(dir, "start")
	// The pane waits for Enter so that the control client is attached
	// before the agent starts; then the wrapper stamps the time and execs.
	quoted := []string{"exec", shq(self), "stamp", shq(stampFile)}
	for _, a := range argv {
		quoted = append(quoted, shq(a))
	}
	if _, err := t.run("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-c", *cwd,
		"-e", "COLORTERM=truecolor", "-e", "LANG=C.UTF-8",
		"read _; "+strings.Join(quoted, " ")); err != nil {
		return err
	}
	defer t.run("kill-server")
	w, err := watch(t, "bench")
	if err != nil {
		return err
	}
	defer w.close()
	if _, err := t.run("send-keys", "-t", "bench", "Enter"); err != nil {
		return err
	}
	res := result{Agent: *agent, Run: *runN}
	frameAt, err := w.waitScreen("the footer", 60*time.Second, func(s string) bool { return strings.Contains(s, *marker) })
	if err != nil {
		return err
	}
	b, err := os.ReadFile(stampFile)
	if err != nil {
		return err
	}
	startNs, _ := strconv.ParseInt(string(b), 10, 64)
	frameMs := float64(frameAt.UnixNano()-startNs) / 1e6
	pidText, err := t.run("display-message", "-p", "-t", "bench", "#{pane_pid}")
	if err != nil {
		return err
	}
	pid := strings.TrimSpace(pidText)
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
		if _, err := t.run("send-keys", "-t", "bench", "-l", "Say tok many times."); err != nil {
			return err
		}
		if _, err := t.run("send-keys", "-t", "bench", "Enter"); err != nil {
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
	}
	if *keys > 0 {
		readyAt, err := w.waitScreen("the resumed session", 120*time.Second, func(s string) bool { return strings.Contains(s, *ready) })
		if err != nil {
			return err
		}
		res.ResumeMs = float64(readyAt.UnixNano()-startNs) / 1e6
		time.Sleep(time.Second) // let resuming settle before measuring keys
		before, err := schedCPU(pid)
		if err != nil {
			return err
		}
		typed := ""
		var echoes []float64
		for i := range *keys {
			k := string(rune('a' + i%26))
			typed += k
			sent := time.Now()
			if _, err := t.run("send-keys", "-t", "bench", "-l", k); err != nil {
				return err
			}
			shown, err := w.waitScreen("key "+k, 30*time.Second, func(s string) bool { return strings.Contains(s, typed) })
			if err != nil {
				return err
			}
			echoes = append(echoes, float64(shown.Sub(sent).Microseconds())/1000)
		}
		sort.Float64s(echoes)
		res.EchoMs = echoes[len(echoes)/2]
		after, err := schedCPU(pid)
		if err != nil {
			return err
		}
		res.KeyCPUMs = (after - before) / float64(*keys) * 1000
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// vmHWM is the process's peak resident set in KiB.
func vmHWM(pid string) (float64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			return strconv.ParseFloat(f[1], 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc/" + pid + "/status")
}

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

// writeSession writes an n-exchange session in pi's format (version 3).
func writeSession(args []string) error {
	fl := flag.NewFlagSet("session", flag.ContinueOnError)
	dir := fl.String("dir", "", "session directory")
	cwd := fl.String("cwd", "", "the session's working directory")
	n := fl.Int("n", 2000, "exchanges")
	if err := fl.Parse(args); err != nil {
		return err
	}
	start := time.Now().Add(-time.Duration(*n) * time.Minute).UTC()
	iso := func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z") }
	id := fmt.Sprintf("0190a000-0000-7000-8000-%012d", start.Unix())
	name := strings.NewReplacer(":", "-", ".", "-").Replace(iso(start)) + "_" + id + ".jsonl"
	f, err := os.Create(filepath.Join(*dir, name))
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	parent := any(nil)
	seq := 0
	entry := func(m map[string]any, t time.Time) error {
		seq++
		eid := fmt.Sprintf("%08x", seq)
		m["id"], m["parentId"], m["timestamp"] = eid, parent, iso(t)
		parent = eid
		return enc.Encode(m)
	}
	if err := enc.Encode(map[string]any{"type": "session", "version": 3, "id": id, "timestamp": iso(start), "cwd": *cwd}); err != nil {
		return err
	}
	_ = entry(map[string]any{"type": "model_change", "provider": "fake-openai", "modelId": "fake-gpt"}, start)
	_ = entry(map[string]any{"type": "thinking_level_change", "thinkingLevel": "off"}, start)
	for i := 1; i <= *n; i++ {
		t := start.Add(time.Duration(i) * time.Minute)
		user := map[string]any{"role": "user", "content": []any{map[string]any{"type": "text",
			"text": fmt.Sprintf("Question %d: how does the parser handle case %d?", i, i)}}, "timestamp": t.UnixMilli()}
		text := fmt.Sprintf("Answer %d. The parser reads the input in **one pass** and keeps `state%d` in a small struct.\n\n"+
			"- it checks the header\n- it decodes each entry\n\nThat is the whole story for case %d.", i, i, i)
		asst := map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}},
			"api": "openai-completions", "provider": "fake-openai", "model": "fake-gpt",
			"usage": map[string]any{"input": 100 + i, "output": 40, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 140 + i,
				"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
			"stopReason": "stop", "timestamp": t.UnixMilli() + 500}
		if err := entry(map[string]any{"type": "message", "message": user}, t); err != nil {
			return err
		}
		if err := entry(map[string]any{"type": "message", "message": asst}, t.Add(500*time.Millisecond)); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// answerChunks is the streamed answer: "tok " n-1 times, then a marker the
// driver waits for.
func answerChunks(n int) []string {
	chunks := make([]string, 0, n)
	for range n - 1 {
		chunks = append(chunks, "tok ")
	}
	return append(chunks, "END-OF-ANSWER")
}

// setScript gives fakellm.js (or the built-in fake) its looping script.
func setScript(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: script URL TOKENS DELAY_MS")
	}
	n, _ := strconv.Atoi(args[1])
	delay, _ := strconv.Atoi(args[2])
	body, _ := json.Marshal(map[string]any{"loop": true, "turns": []any{map[string]any{"textChunks": answerChunks(n), "delayMs": delay}}})
	resp, err := http.Post(args[0]+"/_fake/script", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("setting the fake LLM's script: %s", resp.Status)
	}
	return nil
}

// fakeLLM is a stand-in for fakellm.js when node is missing: it answers
// every chat completion with the scripted chunks, one per delay.
func fakeLLM(args []string) error {
	fl := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	portFile := fl.String("port-file", "", "file to write the port to")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var (
		mu     sync.Mutex
		chunks []string
		delay  time.Duration
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/_fake/script", func(w http.ResponseWriter, r *http.Request) {
		var s struct {
			Turns []struct {
				TextChunks []string `json:"textChunks"`
				DelayMs    int      `json:"delayMs"`
			} `json:"turns"`
		}
		if err := json.NewDecoder(r.Body).Decode(&s); err != nil || len(s.Turns) == 0 {
			http.Error(w, "bad script", http.StatusBadRequest)
			return
		}
		mu.Lock()
		chunks, delay = s.Turns[0].TextChunks, time.Duration(s.Turns[0].DelayMs)*time.Millisecond
		mu.Unlock()
	})
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl, _ := w.(http.Flusher)
		send := func(delta string, finish string) bool {
			fin := "null"
			if finish != "" {
				fin = strconv.Quote(finish)
			}
			_, err := fmt.Fprintf(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"fake-gpt","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, fin)
			if fl != nil {
				fl.Flush()
			}
			return err == nil && r.Context().Err() == nil
		}
		mu.Lock()
		chunks, delay := chunks, delay
		mu.Unlock()
		send(`{"role":"assistant","content":""}`, "")
		for _, c := range chunks {
			b, _ := json.Marshal(map[string]string{"content": c})
			if !send(string(b), "") {
				return
			}
			time.Sleep(delay)
		}
		send(`{}`, "stop")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"fake-gpt","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":4000,"total_tokens":4100}}`+"\n\ndata: [DONE]\n\n")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*portFile, []byte(strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)), 0o644); err != nil {
		return err
	}
	return http.Serve(ln, mux)
}

// report prints the medians as a markdown table.
func report(args []string) error {
	fl := flag.NewFlagSet("report", flag.ContinueOnError)
	runs := fl.Int("runs", 0, "")
	piVersion := fl.String("pi-version", "", "")
	piMissing := fl.String("pi-missing", "", "")
	fake := fl.String("fake", "", "")
	tokens := fl.Int("tokens", 0, "")
	tokenMs := fl.Int("token-ms", 0, "")
	exchanges := fl.Int("exchanges", 0, "")
	keys := fl.Int("keys", 0, "")
	if err := fl.Parse(args); err != nil {
		return err
	}
	b, err := os.ReadFile(fl.Arg(0))
	if err != nil {
		return err
	}
	var rows []result
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return fmt.Errorf("results line %q: %w", l, err)
		}
		rows = append(rows, r)
	}
	med := func(agent string, get func(result) float64) (float64, bool) {
		var xs []float64
		for _, r := range rows {
			if v := get(r); r.Agent == agent && v != 0 {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			return 0, false
		}
		sort.Float64s(xs)
		if m := len(xs) / 2; len(xs)%2 == 1 {
			return xs[m], true
		} else {
			return (xs[m-1] + xs[m]) / 2, true
		}
	}
	fmt.Printf("cairn TUI vs pi %s interactive, under tmux at 120x40: medians of %d runs, %d CPUs, fake LLM: %s.\n\n",
		*piVersion, *runs, runtime.NumCPU(), *fake)
	if *piMissing != "" {
		fmt.Printf("pi's column is missing: %s.\n\n", *piMissing)
	}
	fmt.Println("| measure | cairn | pi | cairn/pi | cairn target | met |")
	fmt.Println("|---|---|---|---|---|---|")
	line := func(name string, get func(result) float64, digits int, target float64, targetText string) {
		c, okC := med("cairn", get)
		p, okP := med("pi", get)
		cs, ps, ratio, met := "n/a", "n/a", "", ""
		if okC {
			cs = strconv.FormatFloat(c, 'f', digits, 64)
			if target > 0 {
				met = map[bool]string{true: "yes", false: "no"}[c <= target]
			}
		}
		if okP {
			ps = strconv.FormatFloat(p, 'f', digits, 64)
		}
		if okC && okP && p > 0 {
			ratio = strconv.FormatFloat(c/p, 'f', 3, 64)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", name, cs, ps, ratio, targetText, met)
	}
	line("spawn -> first frame with the footer, ms", func(r result) float64 { return r.FrameMs }, 1, 30, "<= 30 ms")
	line("peak RSS 1 s after the first frame, MiB", func(r result) float64 { return r.RSSKiB / 1024 }, 1, 25, "<= 25 MiB")
	line(fmt.Sprintf("CPU for a %d-token answer at %d ms/token, s", *tokens, *tokenMs), func(r result) float64 { return r.StreamCPUS }, 2, 0.5, "<= 0.5 s")
	line("  (wall time of that answer, s)", func(r result) float64 { return r.StreamWallS }, 2, 0, "")
	line(fmt.Sprintf("spawn -> a %d-exchange session on screen, ms", *exchanges), func(r result) float64 { return r.ResumeMs }, 0, 0, "")
	line(fmt.Sprintf("CPU per keystroke in that session (%d keys), ms", *keys), func(r result) float64 { return r.KeyCPUMs }, 3, 1, "<= 1 ms")
	line("keystroke echo in that session (send-keys -> on screen; median key), ms", func(r result) float64 { return r.EchoMs }, 1, 0, "")
	fmt.Println()
	fmt.Println("Stream CPU is utime+stime from /proc/<pid>/stat (10 ms ticks); keystroke CPU sums")
	fmt.Println("/proc/<pid>/task/*/schedstat. The first frame is timed from a wrapper's exec to the")
	fmt.Printf("tmux %s notification that completed the first screen showing the footer.\n", "%output")
	return nil
}
GO
}

say "building cairn and the driver"
CAIRN=${CAIRN_BIN:-$work/cairn}
# As make build does: the headless cairn, which hands the TUI over to the
# cairn-tui beside it (the hand-over is part of what is measured).
[ -n "${CAIRN_BIN:-}" ] || { CGO_ENABLED=${CGO:-0} go build -trimpath -ldflags '-s -w' -o "$work/cairn-tui" ./cmd/cairn &&
  CGO_ENABLED=${CGO:-0} go build -tags headless -trimpath -ldflags '-s -w' -o "$CAIRN" ./cmd/cairn; }
mkdir -p "$work/driver"
write_driver "$work/driver/main.go"
printf 'module tuibench\n\ngo 1.22\n' >"$work/driver/go.mod"
(cd "$work/driver" && GOFLAGS= go build -o "$work/tuibench" .)
D=$work/tuibench

# The fake LLM, for the whole run.
if [ -f "$SHARED/tools/fakellm.js" ] && command -v node >/dev/null; then
  node "$SHARED/tools/fakellm.js" --port 0 --port-file "$work/port" --loop >"$work/fakellm.log" 2>&1 &
  fake_what="shared/tools/fakellm.js"
else
  "$D" fakellm -port-file "$work/port" >"$work/fakellm.log" 2>&1 &
  fake_what="the driver's built-in fake LLM"
fi
fake_pid=$!
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || die "the fake LLM did not start: $(cat "$work/fakellm.log")"
PORT=$(cat "$work/port")
"$D" script "http://127.0.0.1:$PORT" "$TOKENS" "$TOKEN_MS"

# The same models.json (pi's schema) for both agents.
models='{"providers":{"fake-openai":{"baseUrl":"http://127.0.0.1:'$PORT'/v1","api":"openai-completions","apiKey":"fake-key",
  "models":[{"id":"fake-gpt","name":"Fake GPT","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
  "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}'
mkdir -p "$work/pi-home/.pi/agent" "$work/cairn-home/.cairn" "$work/cwd" "$work/resume-cwd"
printf '%s\n' "$models" >"$work/pi-home/.pi/agent/models.json"
printf '%s\n' "$models" >"$work/cairn-home/.cairn/models.json"
slug="--$(printf '%s' "${work#/}/resume-cwd" | tr '/\\:' '---')--"

agent_cmd() { # AGENT [FLAG...]: sets cmd to the command line that starts AGENT
  local a=$1
  shift
  if [ "$a" = cairn ]; then
    cmd=(env "HOME=$work/cairn-home" "CAIRN_DIR=$work/cairn-home/.cairn" "$CAIRN" --provider fake-openai --model fake-gpt "$@")
  else
    cmd=(env "HOME=$work/pi-home" "$PI" --offline --provider fake-openai --model fake-gpt "$@")
  fi
}

# A fresh 2,000-exchange session where AGENT looks for it.
write_session() { # AGENT
  local dir
  if [ "$1" = cairn ]; then dir=$work/cairn-home/.cairn/sessions/$slug; else dir=$work/pi-home/.pi/agent/sessions/$slug; fi
  rm -rf "$dir" && mkdir -p "$dir"
  "$D" session -dir "$dir" -cwd "$work/resume-cwd" -n "$EXCHANGES"
}

results=$work/results.jsonl
: >"$results"
agents=()
for a in ${AGENTS:-cairn pi}; do
  case $a in
    cairn) agents+=(cairn) ;;
    pi) if [ -n "$PI" ]; then agents+=(pi); fi ;;
    *) die "AGENTS lists $a; it may name cairn and pi" ;;
  esac
done
[ -z "$PI" ] || [[ " ${AGENTS:-cairn pi} " == *" pi "* ]] || pi_missing="AGENTS leaves it out"

for i in $(seq 0 "$RUNS"); do
  [ "$i" -eq 0 ] && say "warm-up run" || say "run $i of $RUNS"
  for a in "${agents[@]}"; do
    agent_cmd "$a"
    "$D" run -agent "$a" -run "$i" -work "$work" -cwd "$work/cwd" -marker fake-gpt -stream \
      -- "${cmd[@]}" >>"$results.tmp" || die "$a: start and stream run $i failed"
    write_session "$a"
    agent_cmd "$a" --continue
    "$D" run -agent "$a" -run "$i" -work "$work" -cwd "$work/resume-cwd" -marker fake-gpt \
      -ready "whole story for case $EXCHANGES" -keys "$KEYS" -- "${cmd[@]}" >>"$results.tmp" ||
      die "$a: keystroke run $i failed"
  done
  # The warm-up run is not recorded.
  [ "$i" -gt 0 ] && cat "$results.tmp" >>"$results"
  rm -f "$results.tmp"
done

"$D" report -runs "$RUNS" -pi-version "$PI_VERSION" -pi-missing "$pi_missing" -fake "$fake_what" \
  -tokens "$TOKENS" -token-ms "$TOKEN_MS" -exchanges "$EXCHANGES" -keys "$KEYS" "$results"
