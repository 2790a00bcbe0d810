package anthropic

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestGoldenStreams decodes every recorded Anthropic stream and pins the
// event sequence and final message.
func TestGoldenStreams(t *testing.T) {
	cases := []struct {
		fixture string
		chunks  bool
		reason  core.StopReason
		errCode string // provider error code expected, "" for success
	}{
		{fixture: "text.0.sse", reason: core.StopEnd},
		{fixture: "tool_use.0.sse", reason: core.StopToolUse},
		{fixture: "tool_use.1.sse", reason: core.StopEnd},
		{fixture: "parallel_tool_use.0.sse", reason: core.StopToolUse},
		{fixture: "parallel_tool_use.1.sse", reason: core.StopEnd},
		{fixture: "thinking_tool_use.0.sse", reason: core.StopToolUse},
		{fixture: "thinking_tool_use.1.sse", reason: core.StopEnd},
		{fixture: "thinking_refusal.sse", reason: core.StopError, errCode: "refusal"},
		{fixture: "error_overloaded_midstream.sse", reason: core.StopError, errCode: "overloaded_error"},
		{fixture: "prompt_cache_server_tools.chunks.jsonl", chunks: true, reason: core.StopEnd},
		{fixture: "text_sonnet45.chunks.jsonl", chunks: true, reason: core.StopEnd},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			rel := "anthropic/" + tc.fixture
			resp := providertest.SSE(t, rel)
			if tc.chunks {
				resp = providertest.Chunks(t, rel, true)
			}
			srv := providertest.NewServer(t, resp)
			msg, err, tr := stream(t, newProvider(srv, nil), testRequest(srv))
			if msg.StopReason != tc.reason {
				t.Errorf("stop reason = %q, want %q (error: %v)", msg.StopReason, tc.reason, err)
			}
			if tc.errCode == "" && err != nil {
				t.Errorf("unexpected error: %v", err)
			}
			if tc.errCode != "" {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != tc.errCode {
					t.Errorf("error = %#v, want a *provider.Error with code %q", err, tc.errCode)
				}
			}
			name := strings.TrimSuffix(strings.TrimSuffix(tc.fixture, ".sse"), ".chunks.jsonl")
			providertest.Golden(t, name, tr.Bytes(msg))
		})
	}
}

// TestStopStreams decodes the constructed streams in testdata/stops. A
// max_tokens stop in the middle of a tool call ends as StopLength with the
// text kept and the cut-off call marked invalid (its arguments {} and the
// text that arrived kept), so the agent answers it with an error instead
// of running it.
func TestStopStreams(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "stops", "max_tokens_tool_use.sse"))
	if err != nil {
		t.Fatal(err)
	}
	srv := providertest.NewServer(t, providertest.SSEBody(string(body)))
	msg, err, tr := stream(t, newProvider(srv, nil), testRequest(srv))
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != core.StopLength || msg.RawStopReason != "max_tokens" || msg.Text() != "I'll create the file." {
		t.Errorf("stop %s (%s) text %q", msg.StopReason, msg.RawStopReason, msg.Text())
	}
	calls := msg.ToolCalls()
	if len(calls) != 1 {
		t.Fatalf("%d tool calls, want the cut-off one", len(calls))
	}
	if c := calls[0]; string(c.Arguments) != "{}" || c.InvalidArguments != `{"path": "main.go", "content": "package main\n\nfunc ma` {
		t.Errorf("cut-off call: arguments %s, invalid %q", c.Arguments, c.InvalidArguments)
	}
	providertest.Golden(t, "stops/max_tokens_tool_use", tr.Bytes(msg))
}

// TestStreamFacts checks, independently of the golden files, the facts a
// person would notice in each recorded stream.
func TestStreamFacts(t *testing.T) {
	run := func(t *testing.T, resp providertest.Response) (*core.AssistantMessage, error) {
		srv := providertest.NewServer(t, resp)
		msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
		return msg, err
	}

	t.Run("text", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/text.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(msg.Text(), "Olá! (That's \"hi\" in Portuguese)") || !strings.HasSuffix(msg.Text(), "casual way to say hi in Portuguese.") {
			t.Errorf("text = %q", msg.Text())
		}
		if msg.Model != "claude-sonnet-4-20250514" {
			t.Errorf("model = %q", msg.Model)
		}
		if msg.Usage.Input != 16 || msg.Usage.Output == 0 || msg.Usage.TotalTokens != msg.Usage.Input+msg.Usage.Output {
			t.Errorf("usage = %+v", msg.Usage)
		}
		if msg.Usage.Cost.Total <= 0 {
			t.Errorf("usage was not priced: %+v", msg.Usage.Cost)
		}
	})

	t.Run("tool call split inside keys", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/tool_use.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		calls := msg.ToolCalls()
		if len(calls) != 1 || calls[0].ID != "toolu_01N2eM4V43kGCDkq2Lw7ChWQ" || calls[0].Name != "weather" ||
			string(calls[0].Arguments) != `{"location":"Florence,Italy"}` {
			t.Errorf("tool calls = %+v", calls)
		}
		if msg.Usage.Input != 394 || msg.Usage.Output != 67 {
			t.Errorf("usage = %+v", msg.Usage)
		}
	})

	t.Run("parallel tool calls", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/parallel_tool_use.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		calls := msg.ToolCalls()
		if len(calls) != 2 || calls[0].Name != "add" || calls[1].Name != "multiply" ||
			string(calls[0].Arguments) != `{"a":2,"b":3}` || string(calls[1].Arguments) != `{"a":2,"b":3}` {
			t.Errorf("tool calls = %+v", calls)
		}
	})

	t.Run("thinking with signature", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/thinking_tool_use.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		th := msg.Content[0]
		if th.Type != core.ContentThinking || !strings.HasPrefix(th.Thinking, "The user is asking for weather information for Florence") ||
			!strings.HasPrefix(th.ThinkingSignature, "EtYDCkYICxgCKkAVHEWR") {
			t.Errorf("thinking block = %+v", th)
		}
		if calls := msg.ToolCalls(); len(calls) != 1 || string(calls[0].Arguments) != `{"location":"Florence, Italy"}` {
			t.Errorf("tool calls = %+v", calls)
		}
	})

	t.Run("prompt cache and server tools", func(t *testing.T) {
		msg, err := run(t, providertest.Chunks(t, "anthropic/prompt_cache_server_tools.chunks.jsonl", true))
		if err != nil {
			t.Fatal(err)
		}
		// message_delta's cumulative counts replace message_start's.
		want := core.Usage{Input: 6, Output: 198, CacheRead: 6289, CacheWrite: 3337}
		if u := msg.Usage; u.Input != want.Input || u.Output != want.Output || u.CacheRead != want.CacheRead || u.CacheWrite != want.CacheWrite {
			t.Errorf("usage = %+v, want %+v", u, want)
		}
		// Server tool blocks are skipped; only the final text remains.
		if len(msg.Content) != 1 || msg.Text() != "The sum of the squares of the numbers 1 through 12 is **650**." {
			t.Errorf("content = %+v", msg.Content)
		}
		if msg.StopReason != core.StopEnd {
			t.Errorf("stop reason = %q", msg.StopReason)
		}
	})

	t.Run("refusal", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/thinking_refusal.sse"))
		if err == nil || msg.StopReason != core.StopError {
			t.Fatalf("stop = %q, err = %v; want a refusal error", msg.StopReason, err)
		}
		if !strings.Contains(msg.ErrorMessage, "the model refused") {
			t.Errorf("error message = %q", msg.ErrorMessage)
		}
		if provider.IsRetryable(err) {
			t.Error("a refusal must not be retried")
		}
		// What arrived before the refusal is kept.
		if msg.Text() != "Hi" || msg.Content[0].ThinkingSignature != "sig-thinking-a" {
			t.Errorf("content = %+v", msg.Content)
		}
	})

	t.Run("overloaded mid-stream", func(t *testing.T) {
		msg, err := run(t, providertest.SSE(t, "anthropic/error_overloaded_midstream.sse"))
		var perr *provider.Error
		if !errors.As(err, &perr) || perr.Code != "overloaded_error" || perr.Message != "Overloaded" || !perr.Retryable || perr.Status != 0 {
			t.Fatalf("error = %#v", err)
		}
		if msg.StopReason != core.StopError || msg.Text() != "Let me look at" {
			t.Errorf("stop = %q, text = %q", msg.StopReason, msg.Text())
		}
		if msg.Usage.Input != 12 {
			t.Errorf("usage from message_start lost: %+v", msg.Usage)
		}
	})
}
