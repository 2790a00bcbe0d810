package provider_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// recorder keeps every event a Builder emits.
type recorder struct {
	events []provider.Event
	msgs   map[*core.AssistantMessage]bool
}

func (r *recorder) emit(e provider.Event) {
	if r.msgs == nil {
		r.msgs = map[*core.AssistantMessage]bool{}
	}
	r.msgs[e.Message] = true
	r.events = append(r.events, e)
}

// trace renders the events compactly: type, index for block events and the
// delta, e.g. "start text_start:0 text_delta:0:hi".
func (r *recorder) trace() string {
	var parts []string
	for _, e := range r.events {
		s := e.Type.String()
		switch e.Type {
		case provider.EventStart, provider.EventUsage:
		case provider.EventDone, provider.EventError:
			s += ":" + string(e.Reason)
		default:
			s += fmt.Sprintf(":%d", e.Index)
			if e.Delta != "" {
				s += ":" + e.Delta
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

var testModel = core.Model{
	ID:       "model-1",
	API:      "test-api",
	Provider: "testprov",
	Cost:     core.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
}

func newBuilder() (*provider.Builder, *recorder) {
	r := &recorder{}
	m := testModel
	return provider.NewBuilder(&m, r.emit), r
}

func TestBuilderEventOrder(t *testing.T) {
	b, r := newBuilder()
	b.Start()
	b.Start()
	th := b.BeginThinking()
	b.Append(th, "let me ")
	b.Append(th, "think")
	b.Block(th).ThinkingSignature = "sig"
	b.End(th)
	tx := b.BeginText()
	b.Append(tx, "Hello")
	b.Append(tx, "")
	b.End(tx)
	tc := b.BeginToolCall("call_1", "read")
	b.Append(tc, `{"path":`)
	b.Append(tc, ` "a.go"}`)
	b.End(tc)
	b.SetUsage(core.Usage{Input: 10, Output: 20})
	msg := b.Finish(core.StopEnd)

	want := `start thinking_start:0 thinking_delta:0:let me  thinking_delta:0:think thinking_end:0 ` +
		`text_start:1 text_delta:1:Hello text_end:1 ` +
		`toolcall_start:2 toolcall_delta:2:{"path": toolcall_delta:2: "a.go"} toolcall_end:2 ` +
		`usage done:toolUse`
	if got := r.trace(); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if len(r.msgs) != 1 || !r.msgs[msg] || b.Message() != msg {
		t.Error("events do not all carry the returned message")
	}
	if msg.StopReason != core.StopToolUse {
		t.Errorf("stop reason %q, want toolUse", msg.StopReason)
	}
	if msg.API != "test-api" || msg.Provider != "testprov" || msg.Model != "model-1" || msg.Timestamp == 0 {
		t.Errorf("message header %+v", msg)
	}
	wantContent := []core.Content{
		{Type: core.ContentThinking, Thinking: "let me think", ThinkingSignature: "sig"},
		{Type: core.ContentText, Text: "Hello"},
		{Type: core.ContentToolCall, ID: "call_1", Name: "read", Arguments: []byte(`{"path":"a.go"}`)},
	}
	if len(msg.Content) != len(wantContent) {
		t.Fatalf("content %+v", msg.Content)
	}
	for i, w := range wantContent {
		g := msg.Content[i]
		if g.Type != w.Type || g.Text != w.Text || g.Thinking != w.Thinking || g.ThinkingSignature != w.ThinkingSignature ||
			g.ID != w.ID || g.Name != w.Name || string(g.Arguments) != string(w.Arguments) {
			t.Errorf("block %d = %+v, want %+v", i, g, w)
		}
	}
	if !b.Done() {
		t.Error("Done() is false after Finish")
	}
	// Every block event's Block() is the block it names.
	for _, e := range r.events {
		switch e.Type {
		case provider.EventStart, provider.EventUsage, provider.EventDone, provider.EventError:
			if e.Block() != nil {
				t.Errorf("%s has a block", e.Type)
			}
		default:
			if e.Block() != &msg.Content[e.Index] {
				t.Errorf("%s Block() is not content[%d]", e.Type, e.Index)
			}
		}
	}
}

func TestBuilderFinishWithoutBlocks(t *testing.T) {
	b, r := newBuilder()
	msg := b.Finish(core.StopEnd)
	if got := r.trace(); got != "start done:stop" {
		t.Errorf("events %s", got)
	}
	if msg.StopReason != core.StopEnd || len(msg.Content) != 0 {
		t.Errorf("message %+v", msg)
	}
	// A second Finish or a Fail after Finish changes nothing.
	b.Finish(core.StopLength)
	b.Fail(core.StopError, errors.New("late"))
	if got := r.trace(); got != "start done:stop" || msg.StopReason != core.StopEnd || msg.ErrorMessage != "" {
		t.Errorf("after second finish: events %s, message %+v", got, msg)
	}
}

func TestBuilderFinishClosesOpenBlocks(t *testing.T) {
	b, r := newBuilder()
	tx := b.BeginText()
	b.Append(tx, "a")
	tc := b.BeginToolCall("c", "f")
	b.Append(tc, `{"x":1}`)
	b.Finish(core.StopEnd)
	want := "start text_start:0 text_delta:0:a toolcall_start:1 toolcall_delta:1:{\"x\":1} text_end:0 toolcall_end:1 done:toolUse"
	if got := r.trace(); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if got := string(b.Message().Content[tc].Arguments); got != `{"x":1}` {
		t.Errorf("arguments %s", got)
	}
}

func TestBuilderStopReasons(t *testing.T) {
	tests := []struct {
		tools bool
		in    core.StopReason
		want  core.StopReason
	}{
		{false, core.StopEnd, core.StopEnd},
		{true, core.StopEnd, core.StopToolUse},
		{true, core.StopLength, core.StopLength},
		{false, core.StopLength, core.StopLength},
		{true, core.StopToolUse, core.StopToolUse},
		{false, core.StopToolUse, core.StopToolUse},
	}
	for _, tt := range tests {
		b, r := newBuilder()
		b.Append(b.BeginText(), "x")
		if tt.tools {
			b.End(b.BeginToolCall("id", "name"))
		}
		if got := b.Finish(tt.in).StopReason; got != tt.want {
			t.Errorf("tools=%v Finish(%s) = %s, want %s", tt.tools, tt.in, got, tt.want)
		}
		if last := r.events[len(r.events)-1]; last.Type != provider.EventDone || last.Reason != tt.want {
			t.Errorf("last event %s %s", last.Type, last.Reason)
		}
	}
}

func TestBuilderAppendIgnoresClosedAndUnknownBlocks(t *testing.T) {
	b, r := newBuilder()
	tx := b.BeginText()
	b.Append(tx, "kept")
	b.End(tx)
	before := r.trace()
	b.Append(tx, "stray")
	b.Append(-1, "stray")
	b.Append(5, "stray")
	b.Append(tx+1, "stray")
	b.End(tx)
	b.End(7)
	b.End(-1)
	if got := r.trace(); got != before {
		t.Errorf("ignored calls emitted events:\n%s\nthen\n%s", before, got)
	}
	if b.Message().Content[tx].Text != "kept" {
		t.Errorf("text %q", b.Message().Content[tx].Text)
	}
	if b.IsOpen(tx) || b.IsOpen(-1) || b.IsOpen(3) {
		t.Error("IsOpen true for a closed or unknown block")
	}
	if b.Block(-1) != nil || b.Block(1) != nil {
		t.Error("Block returned a block for an unknown index")
	}
	if b.PartialArguments(-1) != "" || b.PartialArguments(9) != "" {
		t.Error("PartialArguments of an unknown block is not empty")
	}
}

// Wire formats interleave blocks: OpenAI-style parallel tool calls stream
// arguments for several calls at once, and reasoning can continue after text
// has begun. Appending to an earlier block after a later one opened must work.
func TestBuilderInterleavedBlocks(t *testing.T) {
	b, _ := newBuilder()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Builder panicked on interleaved blocks: %v", p)
		}
	}()
	th := b.BeginThinking()
	b.Append(th, "a")
	tx := b.BeginText()
	b.Append(tx, "x")
	b.Append(th, "b")
	calls := make([]int, 6)
	for i := range calls {
		calls[i] = b.BeginToolCall(fmt.Sprintf("c%d", i), "f")
		b.Append(calls[i], `{"n":`)
	}
	for i, c := range calls {
		b.Append(c, fmt.Sprintf("%d}", i))
	}
	b.Append(tx, "y")
	msg := b.Finish(core.StopEnd)
	if msg.Content[th].Thinking != "ab" || msg.Content[tx].Text != "xy" {
		t.Errorf("thinking %q text %q", msg.Content[th].Thinking, msg.Content[tx].Text)
	}
	for i, c := range calls {
		if got, want := string(msg.Content[c].Arguments), fmt.Sprintf(`{"n":%d}`, i); got != want {
			t.Errorf("call %d arguments %s, want %s", i, got, want)
		}
	}
}

func TestBuilderToolArguments(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		want   string
	}{
		{"compacted, key order kept", []string{`{ "zeta": 1,`, ` "alpha": [1, 2, {"y": 2, "x": 1}],`, "\n \"mid\": \"a b\" }"}, `{"zeta":1,"alpha":[1,2,{"y":2,"x":1}],"mid":"a b"}`},
		{"html characters kept", []string{`{"cmd": "a < b && c > d"}`}, `{"cmd":"a < b && c > d"}`},
		{"escapes kept", []string{`{"s":"line\nnext \u00e9 \"q\""}`}, `{"s":"line\nnext \u00e9 \"q\""}`},
		{"unicode kept", []string{`{"s":"日本 🎉"}`}, `{"s":"日本 🎉"}`},
		{"surrounding space", []string{"  \n{\"a\":1}\n  "}, `{"a":1}`},
		{"duplicate keys kept as sent", []string{`{"a":1,"a":2}`}, `{"a":1,"a":2}`},
		{"empty", nil, `{}`},
		{"whitespace", []string{"   "}, `{}`},
		{"empty object", []string{"{}"}, `{}`},
		{"array", []string{`[1,2]`}, `{}`},
		{"string", []string{`"x"`}, `{}`},
		{"number", []string{`42`}, `{}`},
		{"null", []string{`null`}, `{}`},
		{"truncated", []string{`{"a":`}, `{}`},
		{"trailing garbage", []string{`{"a":1} {"b":2}`}, `{}`},
		{"invalid", []string{`{a:1}`}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := newBuilder()
			i := b.BeginToolCall("id", "tool")
			var raw string
			for _, d := range tt.deltas {
				b.Append(i, d)
				raw += d
			}
			if got := b.PartialArguments(i); got != raw {
				t.Errorf("PartialArguments = %q, want %q", got, raw)
			}
			if len(b.Message().Content[i].Arguments) != 0 {
				t.Error("arguments set before End")
			}
			b.End(i)
			if got := string(b.Message().Content[i].Arguments); got != tt.want {
				t.Errorf("arguments %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBuilderFailKeepsContent(t *testing.T) {
	b, r := newBuilder()
	tx := b.BeginText()
	b.Append(tx, "partial answer")
	tc := b.BeginToolCall("c", "bash")
	b.Append(tc, `{"cmd":"l`)
	msg := b.Fail(core.StopError, errors.New("stream interrupted: unexpected EOF"))
	want := `start text_start:0 text_delta:0:partial answer toolcall_start:1 toolcall_delta:1:{"cmd":"l error:error`
	if got := r.trace(); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if msg.StopReason != core.StopError || msg.ErrorMessage != "stream interrupted: unexpected EOF" {
		t.Errorf("stop %q, error %q", msg.StopReason, msg.ErrorMessage)
	}
	if msg.Content[tx].Text != "partial answer" {
		t.Errorf("text lost: %q", msg.Content[tx].Text)
	}
	if string(msg.Content[tc].Arguments) != `{}` {
		t.Errorf("incomplete arguments = %s, want {}", msg.Content[tc].Arguments)
	}
	// Finishing afterwards does nothing; the message stays failed.
	b.Finish(core.StopEnd)
	if msg.StopReason != core.StopError || r.events[len(r.events)-1].Type != provider.EventError {
		t.Error("Finish after Fail changed the message")
	}

	b2, r2 := newBuilder()
	m2 := b2.Fail(core.StopAborted, nil)
	if got := r2.trace(); got != "error:aborted" || m2.StopReason != core.StopAborted || m2.ErrorMessage != "" {
		t.Errorf("Fail with nil error: events %s, message %+v", got, m2)
	}
}

func TestBuilderStringsStableAcrossAppends(t *testing.T) {
	b, r := newBuilder()
	tx := b.BeginText()
	b.Append(tx, "Hello")
	early := b.Message().Content[tx].Text
	eventText := r.events[len(r.events)-1].Block().Text
	for i := range 2000 {
		b.Append(tx, fmt.Sprintf(" w%d", i))
	}
	if early != "Hello" || eventText != "Hello" {
		t.Errorf("earlier text changed to %q / %q", early, eventText)
	}
	final := b.Message().Content[tx].Text
	if !strings.HasPrefix(final, "Hello w0 w1 ") || !strings.HasSuffix(final, " w1999") {
		t.Errorf("final text %q...", final[:min(40, len(final))])
	}
	b.End(tx)
	if b.Message().Content[tx].Text != final {
		t.Error("End changed the text")
	}

	th := b.BeginThinking()
	b.Append(th, "deep")
	earlyThinking := b.Message().Content[th].Thinking
	for range 2000 {
		b.Append(th, "!")
	}
	b.End(th)
	if earlyThinking != "deep" {
		t.Errorf("earlier thinking changed to %q", earlyThinking)
	}
	if got := b.Message().Content[th].Thinking; got != "deep"+strings.Repeat("!", 2000) {
		t.Errorf("thinking %d bytes", len(got))
	}
	if b.Message().Content[tx].Text != final {
		t.Error("a later block changed an earlier block's text")
	}
}

func TestBuilderUsagePricing(t *testing.T) {
	b, r := newBuilder()
	b.SetUsage(core.Usage{Input: 100, Output: 1})
	b.SetUsage(core.Usage{Input: 1_000_000, Output: 200_000, CacheRead: 500_000, CacheWrite: 100_000})
	msg := b.Finish(core.StopEnd)
	if got := r.trace(); got != "start usage usage done:stop" {
		t.Errorf("events %s", got)
	}
	u := msg.Usage
	if u.Input != 1_000_000 || u.TotalTokens != 1_800_000 {
		t.Errorf("usage %+v", u)
	}
	want := core.Cost{Input: 3, Output: 3, CacheRead: 0.15, CacheWrite: 0.375, Total: 6.525}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"input", u.Cost.Input, want.Input},
		{"output", u.Cost.Output, want.Output},
		{"cacheRead", u.Cost.CacheRead, want.CacheRead},
		{"cacheWrite", u.Cost.CacheWrite, want.CacheWrite},
		{"total", u.Cost.Total, want.Total},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("cost %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if b.Usage() != u {
		t.Error("Usage() differs from the message's usage")
	}
}

func TestBuilderSetModelIDAndNilEmit(t *testing.T) {
	m := testModel
	b := provider.NewBuilder(&m, nil)
	b.SetModelID("")
	if b.Message().Model != "model-1" {
		t.Errorf("empty id replaced the model: %q", b.Message().Model)
	}
	b.SetModelID("model-1-2025")
	b.Append(b.BeginText(), "no emitter, no panic")
	// The model asked for stays; the one that answered is kept beside it.
	if msg := b.Finish(core.StopEnd); msg.Model != "model-1" || msg.ResponseModel != "model-1-2025" || msg.Text() != "no emitter, no panic" {
		t.Errorf("message %+v", msg)
	}
}

func TestEventTypeString(t *testing.T) {
	names := map[provider.EventType]string{
		provider.EventStart: "start", provider.EventTextStart: "text_start", provider.EventTextDelta: "text_delta",
		provider.EventTextEnd: "text_end", provider.EventThinkingStart: "thinking_start", provider.EventThinkingDelta: "thinking_delta",
		provider.EventThinkingEnd: "thinking_end", provider.EventToolCallStart: "toolcall_start", provider.EventToolCallDelta: "toolcall_delta",
		provider.EventToolCallEnd: "toolcall_end", provider.EventUsage: "usage", provider.EventDone: "done", provider.EventError: "error",
		provider.EventType(200): "unknown",
	}
	for ty, want := range names {
		if got := ty.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", ty, got, want)
		}
	}
	e := provider.Event{Type: provider.EventTextDelta, Index: 3, Message: &core.AssistantMessage{}}
	if e.Block() != nil {
		t.Error("Block() of an out-of-range index is not nil")
	}
}

func BenchmarkBuilderTextDeltas(b *testing.B) {
	m := testModel
	b.ReportAllocs()
	for b.Loop() {
		bl := provider.NewBuilder(&m, func(provider.Event) {})
		i := bl.BeginText()
		for range 10_000 {
			bl.Append(i, "token ")
		}
		bl.Finish(core.StopEnd)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10_000), "ns/delta")
}

// A tool call is announced with a delta even when its first fragment is
// empty (pi's Chat Completions order); text blocks and later empty
// fragments get no such event.
func TestBuilderAnnounceToolCall(t *testing.T) {
	b, r := newBuilder()
	text := b.BeginText()
	b.AnnounceToolCall(text, "")
	call := b.BeginToolCall("c1", "bash")
	b.AnnounceToolCall(call, "")
	b.Append(call, "")
	b.Append(call, `{"command":"ls"}`)
	b.SetRawStopReason("tool_calls")
	msg := b.Finish(core.StopEnd)
	want := `start text_start:0 toolcall_start:1 toolcall_delta:1 toolcall_delta:1:{"command":"ls"} text_end:0 toolcall_end:1 done:toolUse`
	if got := r.trace(); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	if msg.RawStopReason != "tool_calls" || string(msg.Content[1].Arguments) != `{"command":"ls"}` {
		t.Errorf("message: raw stop reason %q, arguments %s", msg.RawStopReason, msg.Content[1].Arguments)
	}
}

// TestBuilderKeepsBrokenArguments checks that arguments that are not one
// JSON object become {} with the text kept for an error, not lost.
func TestBuilderKeepsBrokenArguments(t *testing.T) {
	for _, tt := range []struct{ raw, args, invalid string }{
		{`{"a":1}`, `{"a":1}`, ""},
		{``, `{}`, ""},
		{`{"a":1}{"a":1}`, `{}`, `{"a":1}{"a":1}`},
		{`[1]`, `{}`, `[1]`},
	} {
		m := testModel
		b := provider.NewBuilder(&m, nil)
		i := b.BeginToolCall("c1", "t")
		b.Append(i, tt.raw)
		msg := b.Finish(core.StopToolUse)
		c := msg.Content[0]
		if string(c.Arguments) != tt.args || c.InvalidArguments != tt.invalid {
			t.Errorf("%q: arguments %s, invalid %q", tt.raw, c.Arguments, c.InvalidArguments)
		}
	}
}

// TestBuilderAbortEndsBlocks checks that an aborted message, unlike a failed
// one, ends its open blocks before the error event, as pi 0.87.1 does.
func TestBuilderAbortEndsBlocks(t *testing.T) {
	b, r := newBuilder()
	tx := b.BeginText()
	b.Append(tx, "partial")
	b.Fail(core.StopAborted, errors.New("aborted"))
	want := `start text_start:0 text_delta:0:partial text_end:0 error:aborted`
	if got := r.trace(); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}
