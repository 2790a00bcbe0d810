package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeLLM is shared/tools/fakellm.js in Go: an httptest server that replays
// a script of turns over OpenAI Chat Completions (POST .../chat/completions)
// or Anthropic Messages (POST .../messages), one turn per request, with the
// same script format, chunking, ids and usage rules.
type fakeLLM struct {
	srv *httptest.Server

	mu       sync.Mutex
	script   fakeScript
	used     []bool
	ids      int
	requests []fakeRequest
	gates    map[string]*fakeGate
}

// fakeGate holds the answers of the turns that name it (fakeTurn.Hold)
// until the test releases it, so that a test can act while an answer is
// in flight at a known point without sleeping.
type fakeGate struct {
	reached  chan struct{} // closed when a request first waits at the gate
	released chan struct{} // closed by release
}

// fakeScript is fakellm.js's script file.
type fakeScript struct {
	Loop  bool       `json:"loop"`
	Turns []fakeTurn `json:"turns"`
}

// fakeTurn is one scripted answer.
type fakeTurn struct {
	When           *string         `json:"when"`
	Text           *string         `json:"text"`
	Chunks         int             `json:"chunks"`
	ChunkText      *string         `json:"chunkText"`
	TextChunks     []string        `json:"textChunks"`
	Thinking       *string         `json:"thinking"`
	ThinkingChunks json.RawMessage `json:"thinkingChunks"` // a count or a list
	ToolCalls      []fakeToolCall  `json:"toolCalls"`
	ArgChunks      int             `json:"argChunks"`
	Error          *fakeError      `json:"error"`
	StopReason     string          `json:"stopReason"`
	DelayMs        int             `json:"delayMs"`
	// Hold names a gate at which the answer waits until the test
	// releases it (or the request is cancelled): after HoldAfter thinking
	// and text chunks, and before any tool call, error or end.
	Hold      string `json:"hold"`
	HoldAfter int    `json:"holdAfter"`
	// Drop cuts the connection where the answer would end (after a
	// hold, if any), with no finish reason, usage or [DONE].
	Drop             bool `json:"drop"`
	FirstByteDelayMs int  `json:"firstByteDelayMs"`
	Usage            *struct {
		Input  *int `json:"input"`
		Output *int `json:"output"`
	} `json:"usage"`
}

type fakeToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	ArgChunks int             `json:"argChunks"`
}

type fakeError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// fakeRequest is one request the fake received.
type fakeRequest struct {
	Path string
	Body map[string]any
	// Key is the credential the request carried: the Authorization
	// header's bearer token, else x-api-key.
	Key string
}

func newFakeLLM(t testing.TB, script []byte) *fakeLLM {
	t.Helper()
	f := &fakeLLM{}
	if err := json.Unmarshal(script, &f.script); err != nil {
		t.Fatalf("fake LLM script: %v", err)
	}
	f.used = make([]bool, len(f.script.Turns))
	f.gates = map[string]*fakeGate{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	// Cleanups run last first: the held answers end before Close waits
	// for them.
	t.Cleanup(f.releaseAll)
	return f
}

// gate returns the gate called name, making it on first use.
func (f *fakeLLM) gate(name string) *fakeGate {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.gates[name]
	if g == nil {
		g = &fakeGate{reached: make(chan struct{}), released: make(chan struct{})}
		f.gates[name] = g
	}
	return g
}

// Reached returns a channel closed once an answer waits at gate name.
func (f *fakeLLM) Reached(name string) <-chan struct{} { return f.gate(name).reached }

// Release lets the answers waiting at gate name, and any that reach it
// later, go on. Releasing a gate twice is harmless.
func (f *fakeLLM) Release(name string) {
	g := f.gate(name)
	select {
	case <-g.released:
	default:
		close(g.released)
	}
}

func (f *fakeLLM) releaseAll() {
	f.mu.Lock()
	names := make([]string, 0, len(f.gates))
	for n := range f.gates {
		names = append(names, n)
	}
	f.mu.Unlock()
	for _, n := range names {
		f.Release(n)
	}
}

// hold waits at the gate name until it is released or the request ends.
func (f *fakeLLM) hold(s *sseWriter, name string) {
	g := f.gate(name)
	f.mu.Lock()
	select {
	case <-g.reached:
	default:
		close(g.reached)
	}
	f.mu.Unlock()
	select {
	case <-g.released:
	case <-s.r.Context().Done():
	}
}

// Requests returns the requests received so far.
func (f *fakeLLM) Requests() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.requests...)
}

func (f *fakeLLM) nextID() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids++
	return f.ids
}

// pick takes the turn for a request body, as fakellm.js picks it.
func (f *fakeLLM) pick(body string) fakeTurn {
	f.mu.Lock()
	defer f.mu.Unlock()
	for pass := 0; pass < 2; pass++ {
		for i, t := range f.script.Turns {
			if !f.used[i] && t.When != nil && strings.Contains(body, *t.When) {
				f.used[i] = true
				return t
			}
		}
		for i, t := range f.script.Turns {
			if !f.used[i] && t.When == nil {
				f.used[i] = true
				return t
			}
		}
		if !f.script.Loop {
			break
		}
		clear(f.used)
	}
	exhausted := "(fakellm: script exhausted)"
	return fakeTurn{Text: &exhausted}
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	openAI := strings.HasSuffix(r.URL.Path, "/chat/completions")
	anthropic := strings.HasSuffix(r.URL.Path, "/messages")
	if r.Method != http.MethodPost || (!openAI && !anthropic) {
		http.Error(w, `{"error":{"type":"not_found","message":"no route"}}`, http.StatusNotFound)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if key == "" {
		key = r.Header.Get("x-api-key")
	}
	f.requests = append(f.requests, fakeRequest{Path: r.URL.Path, Body: body, Key: key})
	f.mu.Unlock()
	turn := f.pick(string(raw))
	s := &sseWriter{w: w, r: r, holdName: turn.Hold, holdAfter: turn.HoldAfter, f: f}
	if e := turn.Error; e != nil {
		s.holdAt(turn.HoldAfter)
		status := e.Status
		if status == 0 {
			status = 500
		}
		msg, typ := e.Message, e.Type
		if msg == "" {
			msg = "fake error"
		}
		w.Header().Set("content-type", "application/json")
		w.WriteHeader(status)
		if anthropic {
			if typ == "" {
				typ = "api_error"
			}
			fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, typ, msg)
		} else {
			if typ == "" {
				typ = "server_error"
			}
			fmt.Fprintf(w, `{"error":{"message":%q,"type":%q,"code":null}}`, msg, typ)
		}
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	if turn.FirstByteDelayMs > 0 {
		s.sleep(turn.FirstByteDelayMs)
	}
	model, _ := body["model"].(string)
	if model == "" {
		model = "fake-model"
	}
	if openAI {
		f.streamOpenAI(s, turn, model, len(raw))
	} else {
		f.streamAnthropic(s, turn, model, len(raw))
	}
}

// sseWriter writes events and flushes each, so chunks arrive one by one.
type sseWriter struct {
	w   http.ResponseWriter
	r   *http.Request
	buf bytes.Buffer

	f         *fakeLLM
	holdName  string // the turn's gate, if any
	holdAfter int    // content chunks before the hold
	held      bool
}

// holdAt waits at the turn's gate, once, when chunk is the chunk before
// which the turn holds.
func (s *sseWriter) holdAt(chunk int) {
	if s.holdName == "" || s.held || chunk < s.holdAfter {
		return
	}
	s.held = true
	s.f.hold(s, s.holdName)
}

// end is called where the answer's last frames would go: it holds if the
// turn has not held yet, then cuts the connection if the turn drops. It
// reports whether the answer goes on.
func (s *sseWriter) end(t fakeTurn) bool {
	s.holdAt(math.MaxInt)
	if t.Drop {
		// The server closes the connection without a response's end.
		panic(http.ErrAbortHandler)
	}
	return s.r.Context().Err() == nil
}

func (s *sseWriter) event(name string, v any) bool {
	if s.r.Context().Err() != nil {
		return false
	}
	s.buf.Reset()
	if name != "" {
		s.buf.WriteString("event: " + name + "\n")
	}
	data, _ := json.Marshal(v)
	s.buf.WriteString("data: ")
	s.buf.Write(data)
	s.buf.WriteString("\n\n")
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return false
	}
	s.w.(http.Flusher).Flush()
	return true
}

func (s *sseWriter) sleep(ms int) {
	if ms <= 0 {
		return
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.r.Context().Done():
	}
}

// splitInto cuts s into n nearly equal pieces, as fakellm.js does.
func splitInto(s string, n int) []string {
	runes := []rune(s)
	n = max(1, min(max(n, 1), max(1, len(runes))))
	size := (len(runes) + n - 1) / n
	var out []string
	for i := 0; i < len(runes); i += size {
		out = append(out, string(runes[i:min(i+size, len(runes))]))
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

func (t fakeTurn) textChunks() []string {
	switch {
	case t.TextChunks != nil:
		return t.TextChunks
	case t.ChunkText != nil:
		out := make([]string, max(t.Chunks, 1))
		for i := range out {
			out[i] = *t.ChunkText
		}
		return out
	case t.Text != nil:
		return splitInto(*t.Text, t.Chunks)
	}
	return nil
}

func (t fakeTurn) thinkingChunks() []string {
	var list []string
	if json.Unmarshal(t.ThinkingChunks, &list) == nil && list != nil {
		return list
	}
	if t.Thinking == nil {
		return nil
	}
	var n int
	_ = json.Unmarshal(t.ThinkingChunks, &n)
	return splitInto(*t.Thinking, n)
}

type fakeCall struct {
	id, name, args string
	chunks         []string
}

func (t fakeTurn) calls() []fakeCall {
	out := make([]fakeCall, len(t.ToolCalls))
	for i, tc := range t.ToolCalls {
		args := "{}"
		if len(tc.Arguments) > 0 {
			var s string
			if json.Unmarshal(tc.Arguments, &s) == nil {
				args = s
			} else {
				var b bytes.Buffer
				_ = json.Compact(&b, tc.Arguments)
				args = b.String()
			}
		}
		n := tc.ArgChunks
		if n == 0 {
			n = t.ArgChunks
		}
		out[i] = fakeCall{id: tc.ID, name: tc.Name, args: args, chunks: splitInto(args, n)}
	}
	return out
}

func (t fakeTurn) usage(bodyChars, outChars int) (int, int) {
	in := (bodyChars + 3) / 4
	out := max(1, (outChars+3)/4)
	if t.Usage != nil && t.Usage.Input != nil {
		in = *t.Usage.Input
	}
	if t.Usage != nil && t.Usage.Output != nil {
		out = *t.Usage.Output
	}
	return in, out
}

func (f *fakeLLM) streamOpenAI(s *sseWriter, t fakeTurn, model string, bodyChars int) {
	id := fmt.Sprintf("chatcmpl-fake%d", f.nextID())
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
	}
	out := 0
	if !s.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	n := 0
	for _, c := range t.thinkingChunks() {
		s.holdAt(n)
		n++
		out += utf8.RuneCountInString(c)
		if !s.event("", chunk(map[string]any{"reasoning_content": c}, nil)) {
			return
		}
		s.sleep(t.DelayMs)
	}
	for _, c := range t.textChunks() {
		s.holdAt(n)
		n++
		out += utf8.RuneCountInString(c)
		if !s.event("", chunk(map[string]any{"content": c}, nil)) {
			return
		}
		s.sleep(t.DelayMs)
	}
	calls := t.calls()
	if len(calls) > 0 {
		s.holdAt(math.MaxInt)
	}
	for i, c := range calls {
		callID := c.id
		if callID == "" {
			callID = fmt.Sprintf("call_fake%d", f.nextID())
		}
		s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": callID, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": ""}}}}, nil))
		for _, a := range c.chunks {
			out += utf8.RuneCountInString(a)
			if !s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": a}}}}, nil)) {
				return
			}
			s.sleep(t.DelayMs)
		}
	}
	if !s.end(t) {
		return
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	if t.StopReason != "" {
		finish = map[string]string{"stop": "stop", "length": "length", "toolUse": "tool_calls"}[t.StopReason]
		if finish == "" {
			finish = t.StopReason
		}
	}
	s.event("", chunk(map[string]any{}, finish))
	in, outTokens := t.usage(bodyChars, out)
	s.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": outTokens, "total_tokens": in + outTokens}})
	if s.r.Context().Err() == nil {
		io.WriteString(s.w, "data: [DONE]\n\n")
		s.w.(http.Flusher).Flush()
	}
}

func (f *fakeLLM) streamAnthropic(s *sseWriter, t fakeTurn, model string, bodyChars int) {
	msgID := fmt.Sprintf("msg_fake%d", f.nextID())
	in0, _ := t.usage(bodyChars, 0)
	if !s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}}) {
		return
	}
	index, out, n := 0, 0, 0
	block := func(start map[string]any, deltas []map[string]any, extra ...map[string]any) bool {
		if !s.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": start}) {
			return false
		}
		for _, d := range deltas {
			s.holdAt(n)
			n++
			if !s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d}) {
				return false
			}
			s.sleep(t.DelayMs)
		}
		for _, d := range extra {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		ok := s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
		return ok
	}
	if chunks := t.thinkingChunks(); chunks != nil {
		var deltas []map[string]any
		for _, c := range chunks {
			out += utf8.RuneCountInString(c)
			deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": c})
		}
		f.mu.Lock()
		sig := fmt.Sprintf("fakesig%d", f.ids)
		f.mu.Unlock()
		if !block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, deltas, map[string]any{"type": "signature_delta", "signature": sig}) {
			return
		}
	}
	if chunks := t.textChunks(); chunks != nil {
		var deltas []map[string]any
		for _, c := range chunks {
			out += utf8.RuneCountInString(c)
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
		}
		if !block(map[string]any{"type": "text", "text": ""}, deltas) {
			return
		}
	}
	calls := t.calls()
	if len(calls) > 0 {
		s.holdAt(math.MaxInt)
	}
	for _, c := range calls {
		callID := c.id
		if callID == "" {
			callID = fmt.Sprintf("toolu_fake%d", f.nextID())
		}
		var deltas []map[string]any
		for _, a := range c.chunks {
			out += utf8.RuneCountInString(a)
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": a})
		}
		if !block(map[string]any{"type": "tool_use", "id": callID, "name": c.name, "input": map[string]any{}}, deltas) {
			return
		}
	}
	if !s.end(t) {
		return
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	if t.StopReason != "" {
		stop = map[string]string{"stop": "end_turn", "length": "max_tokens", "toolUse": "tool_use"}[t.StopReason]
		if stop == "" {
			stop = t.StopReason
		}
	}
	in, outTokens := t.usage(bodyChars, out)
	s.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"input_tokens": in, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": outTokens}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}
