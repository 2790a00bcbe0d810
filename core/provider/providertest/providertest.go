// Package providertest serves recorded provider traffic from an httptest
// server and pins decoded event sequences in golden files. The provider
// packages' tests share it so every wire format is tested the same way.
package providertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// FixtureDir returns the recorded provider streams: the copy in this
// package's testdata/providers (so a fresh clone tests with nothing beside
// it), or $CAIRN_SHARED/fixtures/providers when that is set, to check newer
// material.
func FixtureDir(t testing.TB) string {
	t.Helper()
	if s := os.Getenv("CAIRN_SHARED"); s != "" {
		return filepath.Join(s, "fixtures", "providers")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "core", "provider", "providertest", "testdata", "providers")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("providertest: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// Fixture reads one fixture file by its path under FixtureDir.
func Fixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(FixtureDir(t), rel))
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	return data
}

// Response is one scripted HTTP answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Drop closes the connection abruptly after Body is sent, as a server
	// that dies mid-stream does.
	Drop bool
	// Hang sends nothing and waits until the client goes away.
	Hang bool
}

// SSE serves a fixture as an event stream, byte for byte.
func SSE(t testing.TB, rel string) Response {
	return Response{Status: 200, Header: sseHeader(), Body: Fixture(t, rel)}
}

// SSEBody serves the given bytes as an event stream.
func SSEBody(body string) Response {
	return Response{Status: 200, Header: sseHeader(), Body: []byte(body)}
}

// Chunks serves a *.chunks.jsonl fixture (one data payload per line) as an
// event stream. With named set, each event gets an "event:" line equal to
// its JSON "type", as Anthropic and the Responses API send.
func Chunks(t testing.TB, rel string, named bool) Response {
	t.Helper()
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(Fixture(t, rel)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if named {
			var head struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &head); err != nil {
				t.Fatalf("chunk in %s: %v", rel, err)
			}
			fmt.Fprintf(&out, "event: %s\n", head.Type)
		}
		fmt.Fprintf(&out, "data: %s\n\n", line)
	}
	return Response{Status: 200, Header: sseHeader(), Body: out.Bytes()}
}

// JSON serves a fixture as a JSON body with the given status.
func JSON(t testing.TB, rel string, status int) Response {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return Response{Status: status, Header: h, Body: Fixture(t, rel)}
}

func sseHeader() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return h
}

// Request is what the server received.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	// ContentLength is the length the request declared, -1 for a body
	// sent without one (chunked).
	ContentLength int64
}

// Server answers requests with its scripted responses in order. A request
// past the end of the script gets a 500 and fails the test.
type Server struct {
	*httptest.Server
	t         testing.TB
	mu        sync.Mutex
	responses []Response
	requests  []Request
	// Arrived receives a value as each request arrives, before it is answered.
	Arrived chan struct{}
}

// NewServer starts a server that is closed when the test ends.
func NewServer(t testing.TB, responses ...Response) *Server {
	s := &Server{t: t, responses: responses, Arrived: make(chan struct{}, 64)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, ContentLength: r.ContentLength})
	var resp Response
	ok := n < len(s.responses)
	if ok {
		resp = s.responses[n]
	}
	s.mu.Unlock()
	select {
	case s.Arrived <- struct{}{}:
	default:
	}
	if !ok {
		s.t.Errorf("providertest: unexpected request %d to %s", n+1, r.URL.Path)
		http.Error(w, "no scripted response", http.StatusInternalServerError)
		return
	}
	if resp.Hang {
		<-r.Context().Done()
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	status := resp.Status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	_, _ = w.Write(resp.Body)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if resp.Drop {
		panic(http.ErrAbortHandler)
	}
}

// Transcript records a stream's events in a stable, readable form for golden
// files: one JSON object per event, then the final message.
type Transcript struct {
	lines [][]byte
}

// Emit records one event; pass it as a provider's emit function.
func (tr *Transcript) Emit(e provider.Event) {
	rec := map[string]any{"type": e.Type.String()}
	switch e.Type {
	case provider.EventTextDelta, provider.EventThinkingDelta, provider.EventToolCallDelta:
		rec["index"] = e.Index
		rec["delta"] = e.Delta
	case provider.EventTextStart, provider.EventThinkingStart:
		rec["index"] = e.Index
	case provider.EventToolCallStart:
		rec["index"] = e.Index
		rec["id"] = e.Message.Content[e.Index].ID
		rec["name"] = e.Message.Content[e.Index].Name
	case provider.EventTextEnd, provider.EventThinkingEnd, provider.EventToolCallEnd:
		rec["index"] = e.Index
		rec["content"] = e.Message.Content[e.Index]
	case provider.EventUsage:
		u := e.Message.Usage
		rec["usage"] = map[string]int{"input": u.Input, "output": u.Output, "cacheRead": u.CacheRead, "cacheWrite": u.CacheWrite}
	case provider.EventDone, provider.EventError:
		rec["reason"] = e.Reason
	}
	line, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	tr.lines = append(tr.lines, line)
}

// Bytes returns the recorded events followed by msg (timestamp cleared).
func (tr *Transcript) Bytes(msg *core.AssistantMessage) []byte {
	var out bytes.Buffer
	for _, l := range tr.lines {
		out.Write(l)
		out.WriteByte('\n')
	}
	if msg != nil {
		m := *msg
		m.Timestamp = 0
		final, err := json.MarshalIndent(&m, "", "  ")
		if err != nil {
			panic(err)
		}
		out.Write(final)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// Types returns the recorded event type names, for assertions about order.
func (tr *Transcript) Types() []string {
	out := make([]string, len(tr.lines))
	for i, l := range tr.lines {
		var rec struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(l, &rec)
		out[i] = rec.Type
	}
	return out
}

// Golden compares got with testdata/<name>.golden, rewriting it under -update.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run the test with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update if the change is intended)\n%s", path, firstDifference(string(want), string(got)))
	}
}

func firstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w, g)
		}
	}
	return ""
}

// TextStream builds an SSE body by calling frame for each of n deltas, for
// benchmarks that need long streams.
func TextStream(n int, head, tail string, frame func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	for i := 0; i < n; i++ {
		b.WriteString(frame(i))
	}
	b.WriteString(tail)
	return b.Bytes()
}

// Conversation builds a coding session of the given number of turns for
// benchmarks of request building: each turn is a prompt, an answer from
// model with signed thinking, text and a tool call, and the call's result.
// Every tenth answer comes from another provider's model, so the history
// also holds answers that must be rewritten before replay.
func Conversation(model core.Model, turns int) []core.Message {
	const sig = "c2lnbmF0dXJlIG9mIGEgdGhpbmtpbmcgYmxvY2s="
	args := json.RawMessage(`{"path":"core/provider/history.go","offset":120,"limit":80}`)
	output := strings.Repeat("func example() { return nil } // a line of a source file\n", 20)
	msgs := make([]core.Message, 0, 3*turns)
	for i := 0; i < turns; i++ {
		id := fmt.Sprintf("toolu_%03d", i)
		answer := &core.AssistantMessage{
			API: model.API, Provider: model.Provider, Model: model.ID, StopReason: core.StopToolUse,
			Content: []core.Content{
				{Type: core.ContentThinking, Thinking: "The user wants the file read; look at the history first.", ThinkingSignature: sig},
				{Type: core.ContentText, Text: "Reading the file."},
				{Type: core.ContentToolCall, ID: id, Name: "read", Arguments: args},
			},
		}
		if i%10 == 9 {
			answer.API, answer.Provider, answer.Model = "other-api", "other", "other-model"
			answer.Content[2].ID = id + "|fc_" + strings.Repeat("x", 60)
		}
		msgs = append(msgs,
			&core.UserMessage{Content: []core.Content{core.TextBlock(fmt.Sprintf("Step %d: read the next part of the file.", i))}},
			answer,
			&core.ToolResultMessage{ToolCallID: answer.Content[2].ID, ToolName: "read", Content: []core.Content{core.TextBlock(output)}},
		)
	}
	return msgs
}
