package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// writeSession writes an n-exchange session in pi's format (version 3).
func writeSession(args []string) error {
	fl := flag.NewFlagSet("session", flag.ContinueOnError)
	dir := fl.String("dir", "", "session directory")
	cwd := fl.String("cwd", "", "the session's working directory")
	n := fl.Int("n", 2000, "exchanges")
	toolKB := fl.Int("tool-kb", 0, "when set, each exchange also runs bash once and its result holds this many KB of output")
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
	parent := any(nil)
	seq := 0
	// Each entry starts as pi writes it: type, id, parentId, timestamp.
	entry := func(m map[string]any, t time.Time) error {
		seq++
		eid := fmt.Sprintf("%08x", seq)
		head, err := json.Marshal([]any{m["type"], eid, parent, iso(t)})
		if err != nil {
			return err
		}
		delete(m, "type")
		if msg, ok := m["message"].(map[string]any); ok {
			// pi writes a message's role first.
			role, _ := json.Marshal(msg["role"])
			delete(msg, "role")
			body, err := json.Marshal(msg)
			if err != nil {
				return err
			}
			m["message"] = json.RawMessage(`{"role":` + string(role) + `,` + string(body[1:]))
		}
		rest, err := json.Marshal(m)
		if err != nil {
			return err
		}
		var h [4]json.RawMessage
		if err := json.Unmarshal(head, &h); err != nil {
			return err
		}
		parent = eid
		_, err = fmt.Fprintf(bw, `{"type":%s,"id":%s,"parentId":%s,"timestamp":%s,%s`+"\n", h[0], h[1], h[2], h[3], rest[1:])
		return err
	}
	hdr, err := json.Marshal([]string{id, iso(start), *cwd})
	if err != nil {
		return err
	}
	var hv [3]json.RawMessage
	if err := json.Unmarshal(hdr, &hv); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(bw, `{"type":"session","version":3,"id":%s,"timestamp":%s,"cwd":%s}`+"\n", hv[0], hv[1], hv[2]); err != nil {
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
		if *toolKB > 0 {
			if err := toolExchange(entry, i, *toolKB, t); err != nil {
				return err
			}
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

// toolExchange writes an assistant message calling bash and the call's
// result: kb thousand bytes of test output.
func toolExchange(entry func(map[string]any, time.Time) error, i, kb int, t time.Time) error {
	id := fmt.Sprintf("call_%d", i)
	call := map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": id, "name": "bash",
		"arguments": map[string]any{"command": fmt.Sprintf("go test ./case%d/...", i)}}},
		"api": "openai-completions", "provider": "fake-openai", "model": "fake-gpt",
		"usage":      map[string]any{"input": 100 + i, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 120 + i, "cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
		"stopReason": "toolUse", "timestamp": t.UnixMilli() + 100}
	var out strings.Builder
	for line := 0; out.Len() < kb*1000; line++ {
		fmt.Fprintf(&out, "=== RUN   TestCase%d/step_%04d\n--- PASS: TestCase%d/step_%04d (0.00s) \"ok\"\n", i, line, i, line)
	}
	result := map[string]any{"role": "toolResult", "toolCallId": id, "toolName": "bash",
		"content": []any{map[string]any{"type": "text", "text": out.String()[:kb*1000]}}, "isError": false, "timestamp": t.UnixMilli() + 300}
	if err := entry(map[string]any{"type": "message", "message": call}, t.Add(100*time.Millisecond)); err != nil {
		return err
	}
	return entry(map[string]any{"type": "message", "message": result}, t.Add(300*time.Millisecond))
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

// markdownAsk is in the prompt that asks for the markdown answer; the
// script's markdown turn answers requests that contain it.
const markdownAsk = "markdown sample"

// splitChunks cuts s (ASCII) into n pieces of nearly equal size.
func splitChunks(s string, n int) []string {
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, s[i*len(s)/n:(i+1)*len(s)/n])
	}
	return out
}

// setScript gives fakellm.js (or the built-in fake) its looping script:
// the token answer for any request, the markdown answer (MD_FILE, which
// ends with END-OF-MARKDOWN, in MD_CHUNKS pieces) for one that asks for
// the markdown sample.
func setScript(args []string) error {
	if len(args) != 5 {
		return errors.New("usage: script URL TOKENS DELAY_MS MD_CHUNKS MD_FILE")
	}
	n, _ := strconv.Atoi(args[1])
	delay, _ := strconv.Atoi(args[2])
	md, _ := strconv.Atoi(args[3])
	doc, err := os.ReadFile(args[4])
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{"loop": true, "turns": []any{
		map[string]any{"textChunks": answerChunks(n), "delayMs": delay},
		map[string]any{"when": markdownAsk, "textChunks": splitChunks(string(doc), md), "delayMs": delay},
	}})
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
	type turn struct {
		When       string   `json:"when"`
		TextChunks []string `json:"textChunks"`
		DelayMs    int      `json:"delayMs"`
	}
	var (
		mu    sync.Mutex
		turns []turn
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/_fake/script", func(w http.ResponseWriter, r *http.Request) {
		var s struct {
			Turns []turn `json:"turns"`
		}
		if err := json.NewDecoder(r.Body).Decode(&s); err != nil || len(s.Turns) == 0 {
			http.Error(w, "bad script", http.StatusBadRequest)
			return
		}
		mu.Lock()
		turns = s.Turns
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
		// As fakellm.js: a turn whose "when" is in the request, else the
		// first without one.
		req, _ := io.ReadAll(r.Body)
		mu.Lock()
		var pick *turn
		for i := range turns {
			if turns[i].When != "" && strings.Contains(string(req), turns[i].When) {
				pick = &turns[i]
				break
			}
		}
		for i := range turns {
			if pick == nil && turns[i].When == "" {
				pick = &turns[i]
			}
		}
		var chunks []string
		var delay time.Duration
		if pick != nil {
			chunks, delay = pick.TextChunks, time.Duration(pick.DelayMs)*time.Millisecond
		}
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
