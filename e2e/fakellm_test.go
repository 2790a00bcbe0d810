package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// reply is one scripted answer of the fake model: text streamed in chunks,
// then tool calls, with an optional pause before each chunk.
type reply struct {
	chunks    []string
	toolCalls []fakeToolCall
	// pace is how long the server waits before each chunk (server-side
	// pacing of a slow stream; it stops early when the client goes away).
	pace time.Duration
}

// fakeToolCall is a tool call the fake model asks for.
type fakeToolCall struct {
	id, name, arguments string
}

// textReply streams text in chunks of about size bytes.
func textReply(text string, size int) reply {
	var chunks []string
	for len(text) > size {
		chunks = append(chunks, text[:size])
		text = text[size:]
	}
	return reply{chunks: append(chunks, text)}
}

// request is one request the fake server received.
type request struct {
	body []byte
	// ended reports whether the answer has ended, and cancelled whether
	// the client went away before it was complete (an aborted stream).
	ended, cancelled bool
}

// chatRequest is the part of a Chat Completions body the tests read.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
}

// messageText is the text of one request message, whether the content is a
// string or an array of parts.
func messageText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// fakeLLM is an OpenAI-compatible chat completions server that streams
// scripted replies as server-sent events and records every request. Replies
// are queued by the test before it sends the prompt that asks for them; a
// request with nothing queued gets a short fixed answer.
type fakeLLM struct {
	srv *httptest.Server

	mu       sync.Mutex
	replies  []reply
	requests []request
	// changed is closed, and replaced, whenever a request arrives or ends.
	changed chan struct{}
}

// startFakeLLM starts the server; it stops when the test ends.
func startFakeLLM(t testing.TB) *fakeLLM {
	f := &fakeLLM{changed: make(chan struct{})}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// baseURL is the value for cairn's --base-url.
func (f *fakeLLM) baseURL() string { return f.srv.URL + "/v1" }

// queue adds replies for the next requests, in order.
func (f *fakeLLM) queue(rs ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies = append(f.replies, rs...)
}

// count is the number of requests received so far.
func (f *fakeLLM) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// waitRequest waits until request n (0-based) has been answered or
// cancelled and returns it.
func (f *fakeLLM) waitRequest(t testing.TB, n int) request {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		f.mu.Lock()
		if n < len(f.requests) && f.requests[n].ended {
			r := f.requests[n]
			f.mu.Unlock()
			return r
		}
		changed := f.changed
		f.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the fake model server did not finish request %d within %s (it has %d)", n, waitTimeout, f.count())
		}
	}
}

// notify wakes every waiter; f.mu is held.
func (f *fakeLLM) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "the fake server only answers POST /v1/chat/completions, not "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, request{body: body})
	rep := reply{chunks: []string{"(the fake server had no answer queued)"}}
	if len(f.replies) > 0 {
		rep, f.replies = f.replies[0], f.replies[1:]
	}
	f.notify()
	f.mu.Unlock()

	complete := streamReply(r.Context(), w, n, rep)

	f.mu.Lock()
	f.requests[n].cancelled = !complete
	f.requests[n].ended = true
	f.notify()
	f.mu.Unlock()
}

// streamReply writes rep as Chat Completions chunks and reports whether it
// got to the end before the client went away.
func streamReply(ctx context.Context, w http.ResponseWriter, n int, rep reply) bool {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	id := fmt.Sprintf("chatcmpl-%d", n)
	send := func(payload string) bool {
		if _, err := io.WriteString(w, "data: "+payload+"\n\n"); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return ctx.Err() == nil
	}
	chunk := func(delta any, finish string) string {
		c := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nilIfEmpty(finish)}},
		}
		b, _ := json.Marshal(c)
		return string(b)
	}
	if !send(chunk(map[string]any{"role": "assistant", "content": ""}, "")) {
		return false
	}
	out := 0
	for _, text := range rep.chunks {
		if rep.pace > 0 && !pause(ctx, rep.pace) {
			return false
		}
		out += len(text)
		if !send(chunk(map[string]any{"content": text}, "")) {
			return false
		}
	}
	for i, tc := range rep.toolCalls {
		call := map[string]any{"index": i, "id": tc.id, "type": "function",
			"function": map[string]any{"name": tc.name, "arguments": tc.arguments}}
		out += len(tc.arguments)
		if !send(chunk(map[string]any{"tool_calls": []any{call}}, "")) {
			return false
		}
	}
	finish := "stop"
	if len(rep.toolCalls) > 0 {
		finish = "tool_calls"
	}
	if !send(chunk(map[string]any{}, finish)) {
		return false
	}
	usage := fmt.Sprintf(`{"id":%q,"object":"chat.completion.chunk","created":1700000000,"model":"test-model","choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":%d,"total_tokens":%d}}`,
		id, out/4+1, 1200+out/4+1)
	if !send(usage) {
		return false
	}
	return send("[DONE]")
}

// pause waits d, or less if ctx ends first; it reports whether ctx is
// still live.
func pause(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
