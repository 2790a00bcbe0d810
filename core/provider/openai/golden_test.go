package openai

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// fixtureStreams lists every recorded stream of this wire format.
func fixtureStreams(t testing.TB) []string {
	var names []string
	for _, dir := range []string{"openai-chat", "openai-compat"} {
		matches, err := filepath.Glob(filepath.Join(providertest.FixtureDir(t), dir, "*.sse"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			names = append(names, dir+"/"+filepath.Base(m))
		}
	}
	if len(names) == 0 {
		t.Fatal("no fixtures found in providertest.FixtureDir")
	}
	return names
}

// TestGolden decodes every recorded stream and pins the event sequence and
// final message.
func TestGolden(t *testing.T) {
	for _, name := range fixtureStreams(t) {
		t.Run(name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.SSE(t, name))
			req := &provider.Request{
				Model:    fixtureModel(name, srv.URL+"/v1"),
				Messages: []core.Message{userText("hi")},
				APIKey:   testKey,
			}
			var tr providertest.Transcript
			msg, err := New(provider.Options{}).Stream(context.Background(), req, tr.Emit)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			providertest.Golden(t, strings.TrimSuffix(name, ".sse"), tr.Bytes(msg))

			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
				t.Errorf("request = %s %s, want POST /v1/chat/completions", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
				t.Errorf("Authorization = %q", got)
			}
			if got := r.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q", got)
			}
			body := sentBody(t, r)
			if body["stream"] != true || toJSON(body["stream_options"]) != `{"include_usage":true}` {
				t.Errorf("stream flags = %v %v", body["stream"], body["stream_options"])
			}
		})
	}
}

// TestGoldenFacts checks, independently of the golden files, the facts a
// person would notice in each recorded answer.
func TestGoldenFacts(t *testing.T) {
	type want struct {
		text, thinking string
		calls          []string // name + arguments
		stop           core.StopReason
		usage          core.Usage
		thinkingField  string
	}
	cases := map[string]want{
		"openai-chat/text.0.sse": {text: "Olá!", stop: core.StopEnd,
			usage: core.Usage{Input: 20, Output: 2}},
		"openai-chat/tool_calls.0.sse": {calls: []string{`weather{"location":"Florence,Italy"}`}, stop: core.StopToolUse,
			usage: core.Usage{Input: 61, Output: 16}},
		"openai-chat/parallel_tool_calls.0.sse": {calls: []string{`add{"a":2,"b":3}`, `multiply{"a":2,"b":3}`}, stop: core.StopToolUse,
			usage: core.Usage{Input: 106, Output: 50}},
		"openai-compat/groq_parallel_tool_calls.0.sse": {text: "I'll perform both addition and multiplication on the numbers 2 and 3 for you.",
			calls: []string{`add{"a":2,"b":3}`, `multiply{"a":2,"b":3}`}, stop: core.StopToolUse,
			usage: core.Usage{Input: 201, Output: 58}},
		"openai-compat/llamacpp_reasoning_tool_calls.0.sse": {thinking: `We need to call function 'weather' with location "Florence, Italy".`,
			calls: []string{`weather{"location":"Florence, Italy"}`}, stop: core.StopToolUse, thinkingField: "reasoning_content",
			usage: core.Usage{Input: 139, Output: 42}},
		"openai-compat/ollama_reasoning_tool_calls.sse": {thinking: "The user wants the weather in Florence. I should call the weather tool.",
			calls: []string{`weather{"location":"Florence, Italy"}`, `weather{"location":"Rome, Italy"}`}, stop: core.StopToolUse,
			thinkingField: "reasoning", usage: core.Usage{Input: 160, Output: 48}},
		"openai-compat/openrouter_anthropic_reasoning.0.sse": {calls: []string{`weather{"location":"Florence, Italy"}`},
			stop: core.StopToolUse, thinkingField: "reasoning", usage: core.Usage{Input: 607, Output: 143}},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.SSE(t, name))
			req := &provider.Request{Model: fixtureModel(name, srv.URL+"/v1"), Messages: []core.Message{userText("hi")}}
			msg, err := New(provider.Options{}).Stream(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if w.text != "" && msg.Text() != w.text {
				t.Errorf("text = %q, want %q", msg.Text(), w.text)
			}
			var thinking []core.Content
			for _, c := range msg.Content {
				if c.Type == core.ContentThinking {
					thinking = append(thinking, c)
				}
			}
			if w.thinkingField != "" {
				if len(thinking) != 1 {
					t.Fatalf("thinking blocks = %d, want 1", len(thinking))
				}
				if thinking[0].ThinkingSignature != w.thinkingField {
					t.Errorf("thinking signature = %q, want %q", thinking[0].ThinkingSignature, w.thinkingField)
				}
				if w.thinking != "" && thinking[0].Thinking != w.thinking {
					t.Errorf("thinking = %q, want %q", thinking[0].Thinking, w.thinking)
				}
			}
			var calls []string
			for _, c := range msg.ToolCalls() {
				if c.ID == "" {
					t.Errorf("tool call %s has no id", c.Name)
				}
				calls = append(calls, c.Name+string(c.Arguments))
			}
			if strings.Join(calls, " ") != strings.Join(w.calls, " ") {
				t.Errorf("calls = %v, want %v", calls, w.calls)
			}
			if msg.StopReason != w.stop {
				t.Errorf("stop = %s, want %s", msg.StopReason, w.stop)
			}
			u := msg.Usage
			if u.Input != w.usage.Input || u.Output != w.usage.Output || u.CacheRead != w.usage.CacheRead {
				t.Errorf("usage = %+v, want %+v", u, w.usage)
			}
		})
	}
}

// TestOpenRouterThinkingNotDoubled: OpenRouter sends each thinking fragment
// both in "reasoning" and in "reasoning_details"; it must be counted once.
func TestOpenRouterThinkingNotDoubled(t *testing.T) {
	name := "openai-compat/openrouter_anthropic_reasoning.0.sse"
	srv := providertest.NewServer(t, providertest.SSE(t, name))
	req := &provider.Request{Model: fixtureModel(name, srv.URL+"/v1"), Messages: []core.Message{userText("hi")}}
	msg, err := New(provider.Options{}).Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := cassetteRequests(t, "openai-compat/openrouter_anthropic_reasoning.cassette.yaml")[1]
	replayed := messagesOf(t, want)[2]["reasoning"]
	if msg.Content[0].Thinking != replayed {
		t.Errorf("thinking = %q\nwant %q", msg.Content[0].Thinking, replayed)
	}
}

// TestErrorFixture: the recorded 429 envelope becomes a typed, retryable
// error carrying the provider's code and message.
func TestErrorFixture(t *testing.T) {
	srv := providertest.NewServer(t, providertest.JSON(t, "openai-chat/error_429_rate_limit.json", 429))
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	opts := provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}}
	var tr providertest.Transcript
	msg, err := New(opts).Stream(context.Background(), req, tr.Emit)
	var perr *provider.Error
	if !errors.As(err, &perr) {
		t.Fatalf("err = %v, want *provider.Error", err)
	}
	if perr.Status != 429 || perr.Code != "rate_limit_exceeded" || !perr.Retryable {
		t.Errorf("error = %+v", perr)
	}
	if !strings.Contains(perr.Message, "Rate limit reached for gpt-4o-mini") {
		t.Errorf("message = %q", perr.Message)
	}
	if msg == nil || msg.StopReason != core.StopError || msg.ErrorMessage != err.Error() {
		t.Errorf("message = %+v", msg)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("requests = %d, want 1 with retries off", len(srv.Requests()))
	}
	providertest.Golden(t, "openai-chat/error_429_rate_limit", tr.Bytes(msg))
}
