package openairesp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func codexModel(baseURL string) core.Model {
	return core.Model{ID: "gpt-5.5", Name: "GPT-5.5", API: APICodex, Provider: "openai-codex", BaseURL: baseURL,
		Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 128000}
}

// TestCodexRequestAsPi: a request to ChatGPT's Codex backend goes to
// {baseUrl}/codex/responses with the ChatGPT token, the account it names
// and pi's headers, and carries pi's body (system prompt as instructions,
// nothing stored, no output limit, tools with strict null); the answer, a
// Responses API stream (a recorded one), is read as usual.
func TestCodexRequestAsPi(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, fixtureDir+"/text.0.sse"))
	token := oauthtest.CodexJWT("acct-42")
	req := &provider.Request{
		Model:     codexModel(srv.URL + "/backend-api"),
		System:    "Be brief.",
		Messages:  []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}},
		Tools:     []core.ToolSpec{{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}},
		Thinking:  core.ThinkingMinimal,
		SessionID: "sess-1",
		APIKey:    token,
	}
	msg, err := NewCodex(provider.Options{}).Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != core.StopEnd || len(msg.Content) == 0 {
		t.Fatalf("answer %+v", msg)
	}
	r := srv.Requests()[0]
	if r.Path != "/backend-api/codex/responses" {
		t.Errorf("path %s", r.Path)
	}
	for k, v := range map[string]string{"Authorization": "Bearer " + token, "chatgpt-account-id": "acct-42", "originator": "pi",
		"OpenAI-Beta": "responses=experimental", "session-id": "sess-1", "x-client-request-id": "sess-1", "Accept": "text/event-stream"} {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	body := decodeJSON(t, r.Body)
	want := map[string]string{"model": `"gpt-5.5"`, "store": "false", "stream": "true", "instructions": `"Be brief."`,
		"text": `{"verbosity":"low"}`, "include": `["reasoning.encrypted_content"]`, "prompt_cache_key": `"sess-1"`,
		"tool_choice": `"auto"`, "parallel_tool_calls": "true", "reasoning": `{"effort":"low","summary":"auto"}`}
	for k, v := range want {
		if got := toJSON(t, body[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if _, ok := body["max_output_tokens"]; ok {
		t.Error("max_output_tokens sent; the Codex backend refuses it and pi sends none")
	}
	if in := toJSON(t, body["input"]); strings.Contains(in, "Be brief.") || !strings.Contains(in, `"hi"`) {
		t.Errorf("input %s: the system prompt belongs in instructions only", in)
	}
	if tools := toJSON(t, body["tools"]); !strings.Contains(tools, `"strict":null`) {
		t.Errorf("tools %s: pi sends strict null to Codex", tools)
	}
}

// TestCodexNeedsALoginToken: a key that is not a ChatGPT token naming an
// account is refused before anything is sent, saying how to log in, and
// without the key.
func TestCodexNeedsALoginToken(t *testing.T) {
	srv := providertest.NewServer(t)
	req := &provider.Request{Model: codexModel(srv.URL), APIKey: "sk-plain-secret-key",
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}}}
	msg, err := NewCodex(provider.Options{}).Stream(context.Background(), req, nil)
	if err == nil || !strings.Contains(err.Error(), "login") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v", err)
	}
	if msg == nil || msg.StopReason != core.StopError {
		t.Fatalf("message %+v", msg)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
}

func TestCodexEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"":                                  "https://chatgpt.com/backend-api/codex/responses",
		"https://x/backend-api/":            "https://x/backend-api/codex/responses",
		"https://x/codex":                   "https://x/codex/responses",
		"https://x/backend/codex/responses": "https://x/backend/codex/responses",
	} {
		if got := codexEndpoint(in); got != want {
			t.Errorf("codexEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}
