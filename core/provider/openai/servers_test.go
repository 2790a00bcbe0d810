package openai

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// streamFrom runs one request for model (its BaseURL set to a server that
// sends body) and returns the answer.
func streamFrom(t *testing.T, model core.Model, body string) *core.AssistantMessage {
	t.Helper()
	srv := providertest.NewServer(t, providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte(body)})
	model.BaseURL = srv.URL + "/v1"
	req := &provider.Request{Model: model, Messages: []core.Message{userText("hi")}, APIKey: testKey}
	msg, err := New(provider.Options{}).Stream(context.Background(), req, func(provider.Event) {})
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	return msg
}

// constructed reads a stream written by hand from a server's documented
// format (testdata/constructed/README.md says which); no recording here
// covers these cases.
func constructed(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "constructed", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestXAIReasoningTokensCountAsOutput: xAI's Chat Completions counts
// reasoning tokens outside completion_tokens (total_tokens adds them).
func TestXAIReasoningTokensCountAsOutput(t *testing.T) {
	body := constructed(t, "xai_reasoning.sse")
	msg := streamFrom(t, core.Model{ID: "grok-3-mini", API: "openai-completions", Provider: "xai", Reasoning: true}, body)
	if msg.Usage.Output != 222 || msg.Usage.Reasoning == nil || *msg.Usage.Reasoning != 196 {
		t.Errorf("usage %+v, want 222 output tokens of which 196 reasoning", msg.Usage)
	}
	// Elsewhere completion_tokens already holds the reasoning.
	msg = streamFrom(t, core.Model{ID: "o3", API: "openai-completions", Provider: "openai", Reasoning: true}, body)
	if msg.Usage.Output != 26 {
		t.Errorf("openai usage %+v, want completion_tokens alone", msg.Usage)
	}
}

// TestMistralThinkingParts: magistral streams its reasoning as thinking
// parts inside a content array.
func TestMistralThinkingParts(t *testing.T) {
	body := constructed(t, "mistral_thinking.sse")
	msg := streamFrom(t, core.Model{ID: "magistral-medium-latest", API: "openai-completions", Provider: "mistral", Reasoning: true}, body)
	if len(msg.Content) != 2 || msg.Content[0].Type != core.ContentThinking || msg.Content[0].Thinking != "The user greets me. Answer briefly." {
		t.Fatalf("content %+v, want a thinking block first", msg.Content)
	}
	if msg.Text() != "Hello! How can I help?" {
		t.Errorf("text %q", msg.Text())
	}
	if msg.Model != "magistral-medium-latest" || msg.ResponseModel != "magistral-medium-2509" {
		t.Errorf("model %q, responseModel %q", msg.Model, msg.ResponseModel)
	}
}

// TestRefusalIsTheAnswer: OpenAI streams a refusal in delta.refusal; it is
// the answer the person reads, not an empty one.
func TestRefusalIsTheAnswer(t *testing.T) {
	body := constructed(t, "refusal.sse")
	msg := streamFrom(t, core.Model{ID: "gpt-4o", API: "openai-completions", Provider: "openai"}, body)
	if msg.Text() != "I can't help with that." || msg.StopReason != core.StopEnd {
		t.Errorf("answer %q, stop %s", msg.Text(), msg.StopReason)
	}
}

// TestRepeatedArgumentsAreKeptAsInvalid: vLLM re-sends a call's whole
// arguments at the end; the joined text is not JSON, so the call carries
// it as invalid (the agent answers it with an error) instead of {}.
func TestRepeatedArgumentsAreKeptAsInvalid(t *testing.T) {
	msg := streamFrom(t, core.Model{ID: "Qwen/Qwen2.5-7B-Instruct", API: "openai-completions", Provider: "vllm"}, constructed(t, "vllm_repeated_arguments.sse"))
	calls := msg.ToolCalls()
	if len(calls) != 1 || string(calls[0].Arguments) != "{}" || calls[0].InvalidArguments != `{"path": "a.txt"}{"path": "a.txt"}` {
		t.Fatalf("calls %+v", calls)
	}
}
