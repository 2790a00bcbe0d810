package faux

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func request() *provider.Request {
	return &provider.Request{
		Model:    Model,
		System:   "be brief",
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hello there")}}},
	}
}

func collect(t *testing.T, p *Provider, ctx context.Context) ([]provider.Event, *core.AssistantMessage, error) {
	t.Helper()
	var evs []provider.Event
	msg, err := p.Stream(ctx, request(), func(e provider.Event) { evs = append(evs, e) })
	if msg == nil {
		t.Fatal("Stream returned a nil message")
	}
	return evs, msg, err
}

func types(evs []provider.Event) string {
	var s []string
	for _, e := range evs {
		s = append(s, e.Type.String())
	}
	return strings.Join(s, " ")
}

func TestScriptedTextStreamsInChunks(t *testing.T) {
	p := New(Options{ChunkSize: 4}, Response{Thinking: "hmm", Text: "Hello, world"})
	evs, msg, err := collect(t, p, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "start thinking_start thinking_delta thinking_end text_start text_delta text_delta text_delta text_end usage done"
	if got := types(evs); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	if msg.Text() != "Hello, world" || msg.Content[0].Thinking != "hmm" {
		t.Fatalf("message content = %+v", msg.Content)
	}
	if msg.StopReason != core.StopEnd || msg.Provider != "faux" || msg.Model != "faux-1" {
		t.Fatalf("message = %+v", msg)
	}
	if msg.Usage.Input == 0 || msg.Usage.Output == 0 {
		t.Fatalf("usage was not estimated: %+v", msg.Usage)
	}
}

func TestToolCallArgumentsStreamAndParse(t *testing.T) {
	p := New(Options{ChunkSize: 5}, Response{Content: []core.Content{{
		Type: core.ContentToolCall, Name: "bash", Arguments: json.RawMessage(`{"command": "echo hi", "timeout": 5}`),
	}}})
	evs, msg, err := collect(t, p, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var deltas strings.Builder
	for _, e := range evs {
		if e.Type == provider.EventToolCallDelta {
			deltas.WriteString(e.Delta)
		}
	}
	if deltas.String() != `{"command": "echo hi", "timeout": 5}` {
		t.Fatalf("argument deltas joined = %q", deltas.String())
	}
	calls := msg.ToolCalls()
	if len(calls) != 1 || string(calls[0].Arguments) != `{"command":"echo hi","timeout":5}` || calls[0].ID == "" {
		t.Fatalf("tool calls = %+v", calls)
	}
	if msg.StopReason != core.StopToolUse {
		t.Fatalf("stop reason = %s, want toolUse", msg.StopReason)
	}
}

func TestChunksNeverSplitUTF8(t *testing.T) {
	text := "héllo wörld ✓ 日本語のテキスト"
	p := New(Options{ChunkSize: 3}, Response{Text: text})
	evs, msg, err := collect(t, p, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Type == provider.EventTextDelta && !json.Valid([]byte(`"`+e.Delta+`"`)) {
			t.Fatalf("delta %q is not valid UTF-8 text", e.Delta)
		}
	}
	if msg.Text() != text {
		t.Fatalf("text = %q", msg.Text())
	}
}

func TestScriptedErrorKeepsContent(t *testing.T) {
	p := New(Options{}, Response{Text: "partial", Error: "server melted"})
	evs, msg, err := collect(t, p, context.Background())
	if err == nil || err.Error() != "server melted" {
		t.Fatalf("err = %v", err)
	}
	if msg.StopReason != core.StopError || msg.ErrorMessage != "server melted" || msg.Text() != "partial" {
		t.Fatalf("message = %+v", msg)
	}
	if evs[len(evs)-1].Type != provider.EventError {
		t.Fatalf("last event = %s, want error", evs[len(evs)-1].Type)
	}
}

func TestExhaustedScriptSaysSo(t *testing.T) {
	p := New(Options{}, Response{Text: "one"})
	if _, _, err := collect(t, p, context.Background()); err != nil {
		t.Fatal(err)
	}
	_, msg, err := collect(t, p, context.Background())
	if !errors.Is(err, ErrScriptExhausted) {
		t.Fatalf("err = %v, want ErrScriptExhausted", err)
	}
	if msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "no more scripted responses") {
		t.Fatalf("message = %+v", msg)
	}
	if p.Calls() != 2 || p.Pending() != 0 {
		t.Fatalf("calls = %d, pending = %d", p.Calls(), p.Pending())
	}
}

func TestExhaustedScriptAnswersWhenExhaustedText(t *testing.T) {
	p := New(Options{WhenExhausted: "The demo script has ended."}, Response{Text: "one"})
	for i, want := range []string{"one", "The demo script has ended.", "The demo script has ended."} {
		_, msg, err := collect(t, p, context.Background())
		if err != nil || msg.StopReason != core.StopEnd || msg.Text() != want {
			t.Fatalf("request %d: text = %q, stop = %s, err = %v; want %q", i+1, msg.Text(), msg.StopReason, err, want)
		}
	}
}

func TestAbortStopsTheStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := New(Options{ChunkSize: 1, TokensPerSecond: 1000}, Response{Text: strings.Repeat("x", 10000)})
	deltas := 0
	msg, err := p.Stream(ctx, request(), func(e provider.Event) {
		if e.Type == provider.EventTextDelta {
			deltas++
			if deltas == 3 {
				cancel()
			}
		}
	})
	if err == nil || msg.StopReason != core.StopAborted {
		t.Fatalf("stop = %s, err = %v; want aborted", msg.StopReason, err)
	}
	if deltas != 3 || msg.Text() != "xxx" {
		t.Fatalf("deltas = %d, text = %q: the stream went on after the abort", deltas, msg.Text())
	}
}

func TestStepSeesTheRequest(t *testing.T) {
	p := New(Options{})
	p.PushStep(func(req *provider.Request) (Response, error) {
		return Response{Text: "you said: " + req.Messages[0].(*core.UserMessage).Content[0].Text}, nil
	})
	_, msg, err := collect(t, p, context.Background())
	if err != nil || msg.Text() != "you said: hello there" {
		t.Fatalf("text = %q, err = %v", msg.Text(), err)
	}
}

func TestLoadScriptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	script := `{"chunkSize": 2, "whenExhausted": "done", "responses": [{"text": "hi"}, {"content": [{"type": "toolCall", "name": "ls", "arguments": {}}]}]}`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Pending() != 2 || p.opts.ChunkSize != 2 || p.opts.WhenExhausted != "done" {
		t.Fatalf("pending = %d, opts = %+v", p.Pending(), p.opts)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("loading a missing script succeeded")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"responses": [`), 0o644)
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("bad script error = %v", err)
	}
}

func BenchmarkFauxTextStream(b *testing.B) {
	text := strings.Repeat("abcdefghijklmnop", 10000)
	b.ReportAllocs()
	for b.Loop() {
		p := New(Options{ChunkSize: 16}, Response{Text: text})
		if _, err := p.Stream(context.Background(), request(), func(provider.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10000), "ns/delta")
}
