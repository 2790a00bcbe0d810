package anthropic

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func TestEndpoint(t *testing.T) {
	cases := map[string]string{
		"":                                "https://api.anthropic.com/v1/messages",
		"https://api.anthropic.com":       "https://api.anthropic.com/v1/messages",
		"https://api.anthropic.com/":      "https://api.anthropic.com/v1/messages",
		"https://api.anthropic.com/v1":    "https://api.anthropic.com/v1/messages",
		"https://api.anthropic.com/v1/":   "https://api.anthropic.com/v1/messages",
		"https://proxy.example/anthropic": "https://proxy.example/anthropic/v1/messages",
	}
	for base, want := range cases {
		if got := endpoint(base); got != want {
			t.Errorf("endpoint(%q) = %q, want %q", base, got, want)
		}
	}
}

func TestHeaders(t *testing.T) {
	cases := []struct {
		name       string
		key        string
		modelHdr   map[string]string
		reqHdr     map[string]string
		wantKey    string
		wantAuth   string
		wantBeta   string
		wantCustom string
	}{
		{name: "api key", key: testKey, wantKey: testKey, wantBeta: betaFeatures},
		{
			name: "oauth token", key: "sk-ant-oat01-abcdef",
			wantAuth: "Bearer sk-ant-oat01-abcdef", wantBeta: oauthBeta + "," + betaFeatures,
		},
		{name: "no key", wantBeta: betaFeatures},
		{
			name: "model and request headers, request wins", key: testKey,
			modelHdr: map[string]string{"X-Custom": "model", "anthropic-beta": "model-beta"},
			reqHdr:   map[string]string{"x-custom": "request"},
			wantKey:  testKey, wantBeta: "model-beta", wantCustom: "request",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := &provider.Request{APIKey: tc.key, Headers: tc.reqHdr}
			req.Model.Headers = tc.modelHdr
			h := http.Header{}
			provider.SetHeaders(h, req, apiHeaders)
			check := func(name, want string) {
				if got := h.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			check("X-Api-Key", tc.wantKey)
			check("Authorization", tc.wantAuth)
			check("Anthropic-Beta", tc.wantBeta)
			check("X-Custom", tc.wantCustom)
			check("Anthropic-Version", "2023-06-01")
			check("Accept", "text/event-stream")
			check("Content-Type", "application/json")
		})
	}
}

// encodeRequest builds req's wire body as Stream sends it.
func encodeRequest(req *provider.Request) ([]byte, error) {
	return provider.EncodeJSON(buildRequest(req))
}

// body builds req's wire body and decodes it generically.
func body(t *testing.T, req *provider.Request) map[string]any {
	t.Helper()
	raw, err := encodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	return out
}

func baseRequest() *provider.Request {
	return &provider.Request{
		Model:    testModel("https://api.anthropic.com"),
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}},
	}
}

func TestThinking(t *testing.T) {
	cases := []struct {
		name      string
		modelID   string
		reasoning bool
		modelMax  int
		maxTokens int
		level     core.ThinkingLevel
		wantMax   float64
		thinking  map[string]any
		effort    string
	}{
		{name: "off", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingOff, wantMax: 8000},
		{name: "not a reasoning model", modelMax: 64000, maxTokens: 8000, level: core.ThinkingHigh, wantMax: 8000},
		{name: "minimal", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingMinimal, wantMax: 9024,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 1024.0}},
		{name: "low", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingLow, wantMax: 10048,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 2048.0}},
		{name: "medium", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingMedium, wantMax: 16192,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 8192.0}},
		{name: "high", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingHigh, wantMax: 24384,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 16384.0}},
		{name: "xhigh thinks like high", reasoning: true, modelMax: 64000, maxTokens: 8000, level: core.ThinkingXHigh, wantMax: 24384,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 16384.0}},
		{name: "capped by the model", reasoning: true, modelMax: 64000, level: core.ThinkingHigh, wantMax: 64000,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 16384.0}},
		{name: "budget shrinks to leave room for the answer", reasoning: true, modelMax: 8192, level: core.ThinkingHigh, wantMax: 8192,
			thinking: map[string]any{"type": "enabled", "budget_tokens": 7168.0}},
		{name: "too small to think", reasoning: true, modelMax: 2000, level: core.ThinkingLow, wantMax: 2000},
		{name: "adaptive opus 4.6", modelID: "claude-opus-4-6", reasoning: true, modelMax: 128000, maxTokens: 32000,
			level: core.ThinkingXHigh, wantMax: 32000, thinking: map[string]any{"type": "adaptive"}, effort: "max"},
		{name: "adaptive sonnet 4.6", modelID: "claude-sonnet-4-6", reasoning: true, modelMax: 64000, maxTokens: 32000,
			level: core.ThinkingMinimal, wantMax: 32000, thinking: map[string]any{"type": "adaptive"}, effort: "low"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := baseRequest()
			if tc.modelID != "" {
				req.Model.ID = tc.modelID
			}
			req.Model.Reasoning = tc.reasoning
			req.Model.MaxTokens = tc.modelMax
			req.MaxTokens = tc.maxTokens
			req.Thinking = tc.level
			temp := 0.5
			req.Temperature = &temp
			b := body(t, req)
			if b["max_tokens"] != tc.wantMax {
				t.Errorf("max_tokens = %v, want %v", b["max_tokens"], tc.wantMax)
			}
			got, _ := b["thinking"].(map[string]any)
			if tc.thinking == nil && got != nil || tc.thinking != nil && !reflect.DeepEqual(got, tc.thinking) {
				t.Errorf("thinking = %v, want %v", got, tc.thinking)
			}
			var effort string
			if oc, ok := b["output_config"].(map[string]any); ok {
				effort, _ = oc["effort"].(string)
			}
			if effort != tc.effort {
				t.Errorf("effort = %q, want %q", effort, tc.effort)
			}
			// The API refuses a temperature while the model thinks.
			if _, has := b["temperature"]; has == (tc.thinking != nil) {
				t.Errorf("temperature present = %v with thinking %v", has, tc.thinking)
			}
		})
	}
}

func TestAdaptiveThinking(t *testing.T) {
	cases := map[string]bool{
		"claude-opus-4-6":            true,
		"claude-opus-4.6":            true,
		"claude-sonnet-4-6":          true,
		"claude-opus-4-7-20260101":   true,
		"claude-sonnet-5":            true,
		"claude-sonnet-4-5-20250929": false,
		"claude-sonnet-4-20250514":   false,
		"claude-opus-4-1-20250805":   false,
		"claude-3-7-sonnet-20250219": false,
		"claude-haiku-4-5":           false,
		"anthropic/claude-opus-4.6":  true,
	}
	for id, want := range cases {
		if got := adaptiveThinking(id); got != want {
			t.Errorf("adaptiveThinking(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestMaxTokensDefaults(t *testing.T) {
	req := baseRequest()
	req.Model.Reasoning = false
	if got := body(t, req)["max_tokens"]; got != 64000.0 {
		t.Errorf("max_tokens = %v, want the model's 64000", got)
	}
	req.Model.MaxTokens = 0
	if got := body(t, req)["max_tokens"]; got != float64(defaultMaxTokens) {
		t.Errorf("max_tokens = %v, want %d", got, defaultMaxTokens)
	}
}

func TestToolsAndSystem(t *testing.T) {
	req := baseRequest()
	req.System = "Be <brief> & exact"
	req.Tools = []core.ToolSpec{
		{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
		{Name: "now", Description: "Current time"},
	}
	raw, err := encodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"Be <brief> & exact"`) {
		t.Errorf("system prompt was HTML-escaped: %s", raw)
	}
	b := body(t, req)
	want := []any{
		map[string]any{"name": "read", "description": "Read a file", "input_schema": map[string]any{
			"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}},
			"required": []any{"path"}, "additionalProperties": false,
		}},
		map[string]any{"name": "now", "description": "Current time", "input_schema": map[string]any{"type": "object", "properties": map[string]any{}}},
	}
	if !reflect.DeepEqual(b["tools"], want) {
		t.Errorf("tools = %v", b["tools"])
	}
	wantSystem := []any{map[string]any{"type": "text", "text": "Be <brief> & exact", "cache_control": map[string]any{"type": "ephemeral"}}}
	if !reflect.DeepEqual(b["system"], wantSystem) {
		t.Errorf("system = %v", b["system"])
	}
	if b["stream"] != true || b["model"] != "claude-sonnet-4-20250514" {
		t.Errorf("stream/model = %v/%v", b["stream"], b["model"])
	}

	req.System = ""
	req.Tools = nil
	b = body(t, req)
	if _, ok := b["system"]; ok {
		t.Error("an empty system prompt must be omitted")
	}
	if _, ok := b["tools"]; ok {
		t.Error("no tools must be omitted")
	}
}

// messagesJSON converts msgs for model and returns the wire messages as
// compact JSON, for exact comparison.
func messagesJSON(t *testing.T, model core.Model, msgs ...core.Message) string {
	t.Helper()
	req := &provider.Request{Model: model, Messages: msgs}
	out, err := json.Marshal(body(t, req)["messages"])
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestReplay(t *testing.T) {
	model := testModel("https://api.anthropic.com")
	user := func(text string) *core.UserMessage {
		return &core.UserMessage{Content: []core.Content{core.TextBlock(text)}}
	}
	ours := func(stop core.StopReason, content ...core.Content) *core.AssistantMessage {
		return &core.AssistantMessage{API: API, Provider: "anthropic", Model: model.ID, StopReason: stop, Content: content}
	}
	call := func(id, name, args string) core.Content {
		return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
	}
	result := func(id, text string, isErr bool) *core.ToolResultMessage {
		return &core.ToolResultMessage{ToolCallID: id, Content: []core.Content{core.TextBlock(text)}, IsError: isErr}
	}
	const cc = `,"cache_control":{"type":"ephemeral"}`

	cases := []struct {
		name string
		msgs []core.Message
		want string
	}{
		{
			name: "signed thinking, redacted thinking and tool calls",
			msgs: []core.Message{
				user("go"),
				ours(core.StopToolUse,
					core.Content{Type: core.ContentThinking, Thinking: "plan", ThinkingSignature: "sig1"},
					core.Content{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"},
					core.TextBlock("Running it."),
					call("toolu_1", "bash", `{"command":"ls"}`),
					call("toolu_2", "read", `{"path":"a"}`)),
				result("toolu_1", "a b", false),
				result("toolu_2", "no such file", true),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"signature":"sig1","thinking":"plan","type":"thinking"},{"data":"opaque","type":"redacted_thinking"},{"text":"Running it.","type":"text"},` +
				`{"id":"toolu_1","input":{"command":"ls"},"name":"bash","type":"tool_use"},{"id":"toolu_2","input":{"path":"a"},"name":"read","type":"tool_use"}],"role":"assistant"},` +
				`{"content":[{"content":[{"text":"a b","type":"text"}],"tool_use_id":"toolu_1","type":"tool_result"},` +
				`{"content":[{"text":"no such file","type":"text"}],"is_error":true,"tool_use_id":"toolu_2","type":"tool_result"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "unsigned thinking goes back as text, blank blocks are dropped",
			msgs: []core.Message{
				user("go"),
				ours(core.StopEnd,
					core.Content{Type: core.ContentThinking, Thinking: "half a thought"},
					core.Content{Type: core.ContentThinking, Thinking: "  "},
					core.TextBlock(" "),
					core.TextBlock("done")),
				user("next"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"text":"half a thought","type":"text"},{"text":"done","type":"text"}],"role":"assistant"},` +
				`{"content":[{"text":"next","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "signed thinking with no visible text keeps its empty thinking field",
			msgs: []core.Message{
				user("go"),
				ours(core.StopEnd, core.Content{Type: core.ContentThinking, ThinkingSignature: "sig"}, core.TextBlock("ok")),
				user("next"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"signature":"sig","thinking":"","type":"thinking"},{"text":"ok","type":"text"}],"role":"assistant"},` +
				`{"content":[{"text":"next","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "thinking from another provider loses its signature",
			msgs: []core.Message{
				user("go"),
				&core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopEnd, Content: []core.Content{
					{Type: core.ContentThinking, Thinking: "summary", ThinkingSignature: `{"type":"reasoning"}`},
					{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "enc"},
					core.TextBlock("answer"),
				}},
				user("next"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"text":"summary","type":"text"},{"text":"answer","type":"text"}],"role":"assistant"},` +
				`{"content":[{"text":"next","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			// Signatures are kept for the model that made them only, as pi
			// keeps them; before CleanHistory any Anthropic model's were.
			name: "thinking from another Claude model goes back as text",
			msgs: []core.Message{
				user("go"),
				&core.AssistantMessage{API: API, Provider: "anthropic", Model: "claude-opus-4-1-20250805", StopReason: core.StopEnd, Content: []core.Content{
					{Type: core.ContentThinking, Thinking: "plan", ThinkingSignature: "sig1"},
					core.TextBlock("answer"),
				}},
				user("next"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"text":"plan","type":"text"},{"text":"answer","type":"text"}],"role":"assistant"},` +
				`{"content":[{"text":"next","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "failed answers with nothing to replay are skipped",
			msgs: []core.Message{
				user("go"),
				ours(core.StopError),
				user("again"),
				ours(core.StopAborted, core.TextBlock("")),
				user("and again"),
			},
			want: `[{"content":[{"text":"go","type":"text"},{"text":"again","type":"text"},{"text":"and again","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			// Before CleanHistory, an aborted answer with content was
			// replayed here, unlike every other provider.
			name: "a failed answer is left out even when it has content",
			msgs: []core.Message{
				user("go"),
				ours(core.StopAborted, core.TextBlock("partial"), call("toolu_1", "bash", `{}`)),
				result("toolu_1", "ran anyway", false),
				user("continue"),
			},
			want: `[{"content":[{"text":"go","type":"text"},{"text":"continue","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "a steering message joins the tool results' turn",
			msgs: []core.Message{
				user("go"),
				ours(core.StopToolUse, call("toolu_1", "bash", `{}`)),
				result("toolu_1", "ok", false),
				user("also check b"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"id":"toolu_1","input":{},"name":"bash","type":"tool_use"}],"role":"assistant"},` +
				`{"content":[{"content":[{"text":"ok","type":"text"}],"tool_use_id":"toolu_1","type":"tool_result"},{"text":"also check b","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "tool calls left without a result get an error result",
			msgs: []core.Message{
				user("go"),
				ours(core.StopToolUse, call("toolu_1", "bash", `{}`), call("toolu_2", "bash", `{}`)),
				result("toolu_2", "ok", false),
				user("stop that"),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"id":"toolu_1","input":{},"name":"bash","type":"tool_use"},{"id":"toolu_2","input":{},"name":"bash","type":"tool_use"}],"role":"assistant"},` +
				`{"content":[{"content":[{"text":"ok","type":"text"}],"tool_use_id":"toolu_2","type":"tool_result"},` +
				`{"content":[{"text":"No result provided","type":"text"}],"is_error":true,"tool_use_id":"toolu_1","type":"tool_result"},` +
				`{"text":"stop that","type":"text"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "foreign tool ids are made acceptable, consistently",
			msgs: []core.Message{
				user("go"),
				&core.AssistantMessage{API: "openai-responses", Provider: "openai", StopReason: core.StopToolUse, Content: []core.Content{
					call("call_abc|fc_123", "bash", `not json`),
				}},
				result("call_abc|fc_123", "ok", false),
			},
			want: `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
				`{"content":[{"id":"call_abc_fc_123","input":{},"name":"bash","type":"tool_use"}],"role":"assistant"},` +
				`{"content":[{"content":[{"text":"ok","type":"text"}],"tool_use_id":"call_abc_fc_123","type":"tool_result"` + cc + `}],"role":"user"}]`,
		},
		{
			name: "images in user messages and tool results",
			msgs: []core.Message{
				&core.UserMessage{Content: []core.Content{core.TextBlock("look"), core.ImageBlock("iVBOR", "image/png")}},
				ours(core.StopToolUse, call("toolu_1", "screenshot", `{}`)),
				&core.ToolResultMessage{ToolCallID: "toolu_1", Content: []core.Content{core.ImageBlock("R0lG", "image/gif")}},
			},
			want: `[{"content":[{"text":"look","type":"text"},{"source":{"data":"iVBOR","media_type":"image/png","type":"base64"},"type":"image"}],"role":"user"},` +
				`{"content":[{"id":"toolu_1","input":{},"name":"screenshot","type":"tool_use"}],"role":"assistant"},` +
				`{"content":[{"content":[{"source":{"data":"R0lG","media_type":"image/gif","type":"base64"},"type":"image"}],"tool_use_id":"toolu_1","type":"tool_result"` + cc + `}],"role":"user"}]`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := messagesJSON(t, model, tc.msgs...), canonical(t, tc.want); got != want {
				t.Errorf("messages:\ngot:  %s\nwant: %s", got, want)
			}
		})
	}
}

func TestImagesForTextOnlyModel(t *testing.T) {
	model := testModel("https://api.anthropic.com")
	model.Input = []string{"text"}
	got := messagesJSON(t, model, &core.UserMessage{Content: []core.Content{core.TextBlock("look"), core.ImageBlock("iVBOR", "image/png")}})
	want := `[{"content":[{"text":"look","type":"text"},{"cache_control":{"type":"ephemeral"},"text":"(image omitted: model does not support images)","type":"text"}],"role":"user"}]`
	if got != canonical(t, want) {
		t.Errorf("messages:\ngot:  %s\nwant: %s", got, want)
	}
}

// canonical re-encodes JSON with sorted keys, as messagesJSON does.
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON: %v\n%s", err, s)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestRequestOverHTTP checks what actually goes over the wire for an
// OAuth token and a base URL that already ends in /v1.
func TestRequestOverHTTP(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, "anthropic/text.0.sse"))
	req := testRequest(srv)
	req.Model.BaseURL = srv.URL + "/v1/"
	req.APIKey = "sk-ant-oat01-SECRET"
	if _, err, _ := stream(t, newProvider(srv, nil), req); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/messages" {
		t.Errorf("path = %q", r.Path)
	}
	if r.Header.Get("Authorization") != "Bearer sk-ant-oat01-SECRET" || r.Header.Get("X-Api-Key") != "" {
		t.Errorf("auth headers: %v", r.Header)
	}
	if !strings.Contains(r.Header.Get("Anthropic-Beta"), oauthBeta) {
		t.Errorf("anthropic-beta = %q", r.Header.Get("Anthropic-Beta"))
	}
}

// BenchmarkEncodeRequest builds the body of a request that replays a
// 100-turn session, as Stream does before sending it.
func BenchmarkEncodeRequest(b *testing.B) {
	model := testModel("")
	req := &provider.Request{Model: model, System: "You are a coding agent.", Messages: providertest.Conversation(model, 100)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}
