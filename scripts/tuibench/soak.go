package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// soakFile is the file in the agent's working directory whose contents
// every tool call prints.
const soakFile = "soak-output.txt"

// soakDone ends the final answer; the driver waits for it on screen.
const soakDone = "SOAK-DONE"

// soakSample is the agent's memory when a request arrives.
type soakSample struct {
	Turn     int     `json:"turn"` // turns finished (tool result in) before the request
	RSSKiB   float64 `json:"rssKiB"`
	HWMKiB   float64 `json:"hwmKiB"`
	ReqBytes int64   `json:"requestBytes"` // the size of that request's body
	AtS      float64 `json:"atS"`          // seconds since the prompt was sent
}

// soak runs one long session against a fake model of its own: every
// request but the last is answered with answer-kb of text and one bash
// call that prints tool-kb of output, turns times, then a final answer.
// It samples the agent's resident set as the requests that follow the
// milestone turns arrive, then measures keystrokes on the final screen.
func soak(args []string) error {
	fl := flag.NewFlagSet("soak", flag.ContinueOnError)
	work := fl.String("work", "", "working directory for tmux files")
	cwd := fl.String("cwd", "", "the agent's working directory (the file bash prints is written there)")
	models := fl.String("models", "", "models.json to write with the fake model's address (pi's schema)")
	turns := fl.Int("turns", 2000, "tool turns before the final answer")
	toolKB := fl.Int("tool-kb", 50, "KB (1000 bytes) each bash call prints")
	answerKB := fl.Int("answer-kb", 2, "KB of text in each answer")
	at := fl.String("at", "100,500,1000,2000", "turns after which to sample the resident set")
	keys := fl.Int("keys", 50, "keystrokes to measure at the end")
	marker := fl.String("marker", "fake-gpt", "text of the footer that marks the first frame")
	timeout := fl.Duration("timeout", 2*time.Hour, "how long the whole session may take")
	out := fl.String("out", "", "file for the JSON result (default stdout)")
	heap := fl.String("heap", "", "the agent's CAIRN_HEAPPROFILE file: at each milestone the agent is sent SIGUSR1 and the profile is kept as FILE.turnN")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *work == "" || *cwd == "" || *models == "" || len(fl.Args()) == 0 {
		return errors.New("usage: tuibench soak -work DIR -cwd DIR -models FILE [flags] -- agent command")
	}
	milestones := map[int]bool{}
	for _, f := range strings.Split(*at, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > *turns {
			return fmt.Errorf("-at: %q is not a turn between 1 and %d", f, *turns)
		}
		milestones[n] = true
	}
	if err := os.WriteFile(filepath.Join(*cwd, soakFile), []byte(soakOutput(*toolKB*1000)), 0o644); err != nil {
		return err
	}

	var (
		mu      sync.Mutex
		pid     string
		served  int
		samples []soakSample
		t0      time.Time
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		size, _ := io.Copy(io.Discard, r.Body)
		mu.Lock()
		served++
		n := served
		p := pid
		mu.Unlock()
		if milestones[n-1] {
			rss, err1 := procStatus(p, "VmRSS:")
			hwm, err2 := procStatus(p, "VmHWM:")
			if err := errors.Join(err1, err2); err != nil {
				fmt.Fprintf(os.Stderr, "tuibench soak: turn %d: %v\n", n-1, err)
			}
			mu.Lock()
			samples = append(samples, soakSample{Turn: n - 1, RSSKiB: rss, HWMKiB: hwm, ReqBytes: size, AtS: time.Since(t0).Seconds()})
			mu.Unlock()
			fmt.Fprintf(os.Stderr, "soak: turn %d: RSS %.1f MiB, request %.1f MB, %.0f s\n", n-1, rss/1024, float64(size)/1e6, time.Since(t0).Seconds())
			if *heap != "" {
				if err := heapProfile(p, *heap, fmt.Sprintf("%s.turn%d", *heap, n-1)); err != nil {
					fmt.Fprintf(os.Stderr, "tuibench soak: turn %d: %v\n", n-1, err)
				}
			}
		}
		if n <= *turns {
			soakReply(w, r, n, soakAnswer(n, *answerKB*1000), `{"command":"cat `+soakFile+`"}`)
		} else {
			soakReply(w, r, n, "All turns are done. "+soakDone, "")
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	cfg := `{"providers":{"fake-openai":{"baseUrl":"http://127.0.0.1:` + strconv.Itoa(port) + `/v1","api":"openai-completions","apiKey":"fake-key",
  "models":[{"id":"fake-gpt","name":"Fake GPT","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
  "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}` + "\n"
	if err := os.WriteFile(*models, []byte(cfg), 0o644); err != nil {
		return err
	}

	p, err := startPane(*work, *cwd, fl.Args())
	if err != nil {
		return err
	}
	defer p.close()
	if _, err := p.w.waitScreen("the footer", 60*time.Second, func(s string) bool { return strings.Contains(s, *marker) }); err != nil {
		return err
	}
	agentPid, err := p.pid()
	if err != nil {
		return err
	}
	mu.Lock()
	pid = agentPid
	t0 = time.Now()
	mu.Unlock()
	if err := p.send("Run the soak: call bash until I say stop."); err != nil {
		return err
	}
	if _, err := p.w.waitScreen("the final answer", *timeout, func(s string) bool { return strings.Contains(s, soakDone) }); err != nil {
		return err
	}
	wall := time.Since(t0).Seconds()
	endRSS, err := procStatus(agentPid, "VmRSS:")
	if err != nil {
		return err
	}
	time.Sleep(time.Second) // let the last frame settle before measuring keys
	keyMs, echoMs, err := p.measureKeys(agentPid, *keys)
	if err != nil {
		return err
	}
	mu.Lock()
	res := map[string]any{"turns": *turns, "toolKB": *toolKB, "answerKB": *answerKB, "samples": samples,
		"endRssKiB": endRSS, "wallS": wall, "keyCpuMs": keyMs, "echoMs": echoMs, "keys": *keys, "requests": served}
	mu.Unlock()
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = fmt.Printf("%s\n", b)
		return err
	}
	return os.WriteFile(*out, append(b, '\n'), 0o644)
}

// heapProfile asks the agent for a heap profile (SIGUSR1; it writes
// file) and keeps it as keep.
func heapProfile(pid, file, keep string) error {
	n, err := strconv.Atoi(pid)
	if err != nil {
		return err
	}
	_ = os.Remove(file)
	if err := syscall.Kill(n, syscall.SIGUSR1); err != nil {
		return err
	}
	for range 300 {
		if _, err := os.Stat(file); err == nil {
			return os.Rename(file, keep)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("no heap profile in %s after 30 s", file)
}

// soakReport prints a soak result as a markdown table.
func soakReport(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: tuibench soak-report RESULT.json")
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var r struct {
		Turns, ToolKB, AnswerKB, Keys int
		Samples                       []soakSample
		EndRssKiB, WallS              float64
		KeyCpuMs, EchoMs              float64
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	sort.Slice(r.Samples, func(i, j int) bool { return r.Samples[i].Turn < r.Samples[j].Turn })
	fmt.Printf("cairn TUI soak under tmux at 120x40: %d turns, each a %d KB answer and a bash call printing %d KB, streamed at full speed; %.0f s in all.\n\n",
		r.Turns, r.AnswerKB, r.ToolKB, r.WallS)
	fmt.Println("| after turn | RSS, MiB | growth since the first sample, MiB | peak RSS so far, MiB | request body, MB | s since the prompt |")
	fmt.Println("|---|---|---|---|---|---|")
	growth := 0.0
	for i, s := range r.Samples {
		g := (s.RSSKiB - r.Samples[0].RSSKiB) / 1024
		if i > 0 {
			growth = max(growth, g)
		}
		fmt.Printf("| %d | %.1f | %+.1f | %.1f | %.1f | %.0f |\n", s.Turn, s.RSSKiB/1024, g, s.HWMKiB/1024, float64(s.ReqBytes)/1e6, s.AtS)
	}
	met := map[bool]string{true: "yes", false: "no"}
	fmt.Println()
	fmt.Println("| measure | cairn | target | met |")
	fmt.Println("|---|---|---|---|")
	if len(r.Samples) > 1 {
		fmt.Printf("| RSS growth after turn %d, MiB | %.1f | <= 10 MiB | %s |\n", r.Samples[0].Turn, growth, met[growth <= 10])
	}
	fmt.Printf("| RSS at the end, MiB | %.1f | | |\n", r.EndRssKiB/1024)
	fmt.Printf("| CPU per keystroke at the end (%d keys), ms | %.3f | <= 1 ms | %s |\n", r.Keys, r.KeyCpuMs, met[r.KeyCpuMs <= 1])
	fmt.Printf("| keystroke echo at the end (median key), ms | %.1f | | |\n", r.EchoMs)
	fmt.Println()
	fmt.Println("RSS is VmRSS from /proc/<pid>/status as the request after that turn arrives (the agent has")
	fmt.Println("built and sent it); keystroke CPU sums /proc/<pid>/task/*/schedstat over the keys.")
	return nil
}

// soakOutput is n bytes of test-log lines, the file bash prints.
func soakOutput(n int) string {
	var b strings.Builder
	for line := 0; b.Len() < n; line++ {
		fmt.Fprintf(&b, "=== RUN   TestSoak/step_%04d\n--- PASS: TestSoak/step_%04d (0.00s) output of a long-running check\n", line, line)
	}
	return b.String()[:n-1] + "\n"
}

// soakAnswer is about n bytes of markdown for turn i.
func soakAnswer(i, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d. I read the last output: every step **passed**, and `step_%04d` took no time.\n\n", i, i%500)
	for k := 0; b.Len() < n; k++ {
		switch k % 3 {
		case 0:
			b.WriteString("The check runs the whole suite again so that a slow leak would show as a growing resident set; nothing in this answer changes between turns except its number and this paragraph's position.\n\n")
		case 1:
			b.WriteString("- the build is clean\n- the tests pass\n- the output is 50 KB of log lines\n\n")
		default:
			b.WriteString("Next I run the same command once more and compare the totals with the previous run's.\n\n")
		}
	}
	return b.String()[:n]
}

// soakReply streams text in 128-byte chunks with no pause, then the bash
// call with arguments args when there is one.
func soakReply(w http.ResponseWriter, r *http.Request, n int, text, args string) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(delta any, finish string) bool {
		c := map[string]any{"id": "c" + strconv.Itoa(n), "object": "chat.completion.chunk", "created": 1, "model": "fake-gpt",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nilIfEmpty(finish)}}}
		b, _ := json.Marshal(c)
		_, err := fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
		return err == nil && r.Context().Err() == nil
	}
	if !send(map[string]any{"role": "assistant", "content": ""}, "") {
		return
	}
	for i := 0; i < len(text); i += 128 {
		if !send(map[string]any{"content": text[i:min(i+128, len(text))]}, "") {
			return
		}
	}
	finish := "stop"
	if args != "" {
		finish = "tool_calls"
		call := map[string]any{"index": 0, "id": "call_" + strconv.Itoa(n), "type": "function",
			"function": map[string]any{"name": "bash", "arguments": args}}
		if !send(map[string]any{"tool_calls": []any{call}}, "") {
			return
		}
	}
	if !send(map[string]any{}, finish) {
		return
	}
	fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"fake-gpt","choices":[],"usage":{"prompt_tokens":1000,"completion_tokens":500,"total_tokens":1500}}`+"\n\ndata: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// procStatus reads one field of /proc/<pid>/status in KiB.
func procStatus(pid, field string) (float64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field {
			return strconv.ParseFloat(f[1], 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%s/status", field, pid)
}
