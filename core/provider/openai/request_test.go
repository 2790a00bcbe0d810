package openai

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestCassetteRequests replays each recorded two-turn conversation: the
// first request must carry the same messages and tool schemas the recorder
// sent, and after decoding the recorded answer and adding the tool results,
// the second request must replay the assistant turn (tool call ids and
// arguments, reasoning in its original field) as the recorder did.
func TestCassetteRequests(t *testing.T) {
	cassettes := []string{
		"openai-chat/text", "openai-chat/tool_calls", "openai-chat/parallel_tool_calls",
		"openai-compat/groq_parallel_tool_calls", "openai-compat/llamacpp_text",
		"openai-compat/llamacpp_tool_calls", "openai-compat/llamacpp_reasoning_tool_calls",
		"openai-compat/openrouter_anthropic_reasoning",
	}
	for _, name := range cassettes {
		t.Run(name, func(t *testing.T) {
			recorded := cassetteRequests(t, name+".cassette.yaml")
			first := recorded[0]
			responses := []providertest.Response{providertest.SSE(t, name+".0.sse")}
			if len(recorded) > 1 {
				responses = append(responses, providertest.SSE(t, name+".1.sse"))
			}
			srv := providertest.NewServer(t, responses...)
			model := fixtureModel(name, srv.URL+"/v1")
			msgs := messagesOf(t, first)
			req := &provider.Request{
				Model:  model,
				System: msgs[0]["content"].(string),
				Tools:  toolsOf(t, first),
				APIKey: testKey,
			}
			req.Messages = []core.Message{userText(msgs[1]["content"].(string))}
			if effort, ok := first["reasoning_effort"].(string); ok {
				req.Thinking = core.ThinkingLevel(effort)
			}
			if r, ok := first["reasoning"].(map[string]any); ok {
				req.Thinking = core.ThinkingLevel(r["effort"].(string))
			}
			p := New(provider.Options{})
			answer, err := p.Stream(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			sent := srv.Requests()
			compareRequest(t, sentBody(t, sent[0]), first)
			if len(recorded) < 2 {
				return
			}

			// Turn 2: the recorded tool results follow the decoded answer.
			req.Messages = append(req.Messages, answer)
			for _, m := range messagesOf(t, recorded[1]) {
				if m["role"] == "tool" {
					req.Messages = append(req.Messages, &core.ToolResultMessage{
						ToolCallID: m["tool_call_id"].(string),
						Content:    []core.Content{core.TextBlock(m["content"].(string))},
					})
				}
			}
			if _, err := p.Stream(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
			compareRequest(t, sentBody(t, srv.Requests()[1]), recorded[1])
		})
	}
}

func toolsOf(t *testing.T, body map[string]any) []core.ToolSpec {
	list, _ := body["tools"].([]any)
	var out []core.ToolSpec
	for _, item := range list {
		fn := item.(map[string]any)["function"].(map[string]any)
		params, err := json.Marshal(fn["parameters"])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, core.ToolSpec{Name: fn["name"].(string), Description: fn["description"].(string), Parameters: params})
	}
	return out
}

// compareRequest checks the parts of a request the server acts on: the
// message sequence and the tool definitions. Fields the recorders set
// differently by choice (max_tokens, tool_choice) are not compared.
func compareRequest(t *testing.T, got, want map[string]any) {
	t.Helper()
	if got["model"] != want["model"] || got["stream"] != true {
		t.Errorf("model/stream = %v/%v, want %v/true", got["model"], got["stream"], want["model"])
	}
	if !reflect.DeepEqual(got["stream_options"], want["stream_options"]) {
		t.Errorf("stream_options = %v, want %v", got["stream_options"], want["stream_options"])
	}
	if !reflect.DeepEqual(got["tools"], want["tools"]) {
		t.Errorf("tools differ\n got: %s\nwant: %s", toJSON(got["tools"]), toJSON(want["tools"]))
	}
	if e, ok := want["reasoning_effort"]; ok && got["reasoning_effort"] != e {
		t.Errorf("reasoning_effort = %v, want %v", got["reasoning_effort"], e)
	}
	if r, ok := want["reasoning"]; ok && !reflect.DeepEqual(got["reasoning"], r) {
		t.Errorf("reasoning = %v, want %v", got["reasoning"], r)
	}
	gm, wm := messagesOf(t, got), messagesOf(t, want)
	if len(gm) != len(wm) {
		t.Fatalf("%d messages, want %d\n got: %s\nwant: %s", len(gm), len(wm), toJSON(gm), toJSON(wm))
	}
	for i := range wm {
		g, w := normalizeMessage(gm[i]), normalizeMessage(wm[i])
		if !reflect.DeepEqual(g, w) {
			t.Errorf("message %d differs\n got: %s\nwant: %s", i, toJSON(g), toJSON(w))
		}
	}
}

// normalizeMessage reduces a wire message to what it means: a missing and
// a null content are the same, and tool arguments compare as JSON values.
// OpenRouter's reasoning_details echo is left out: pi, like cairn, replays
// the reasoning text and lets OpenRouter handle the rest.
func normalizeMessage(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "reasoning_details":
			continue
		case "content":
			if v == nil {
				continue
			}
		case "tool_calls":
			var calls []any
			for _, c := range v.([]any) {
				call := c.(map[string]any)
				fn := call["function"].(map[string]any)
				var args any
				_ = json.Unmarshal([]byte(fn["arguments"].(string)), &args)
				calls = append(calls, map[string]any{"id": call["id"], "type": call["type"], "name": fn["name"], "args": args})
			}
			v = calls
		}
		out[k] = v
	}
	return out
}

func TestSystemRole(t *testing.T) {
	cases := []struct {
		name      string
		reasoning bool
		baseURL   string
		compat    *core.Compat
		want      string
	}{
		{"plain model", false, "https://api.openai.com/v1", nil, "system"},
		{"reasoning model", true, "https://api.openai.com/v1", nil, "developer"},
		{"reasoning on xAI", true, "https://api.x.ai/v1", nil, "system"},
		{"reasoning on Mistral", true, "https://api.mistral.ai/v1", nil, "system"},
		{"reasoning on Ollama", true, "http://localhost:11434/v1", nil, "system"},
		{"compat says no", true, "https://api.openai.com/v1", &core.Compat{SupportsDeveloperRole: ptr(false)}, "system"},
		{"compat says yes", true, "http://localhost:8000/v1", &core.Compat{SupportsDeveloperRole: ptr(true)}, "developer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := openAIModel(tc.baseURL)
			m.Reasoning, m.Compat = tc.reasoning, tc.compat
			body := requestBody(t, &provider.Request{Model: m, System: "be brief", Messages: []core.Message{userText("hi")}})
			first := messagesOf(t, body)[0]
			if first["role"] != tc.want || first["content"] != "be brief" {
				t.Errorf("system message = %v, want role %s", first, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestReasoningParameters(t *testing.T) {
	cases := []struct {
		name      string
		id        string
		provider  string
		baseURL   string
		reasoning bool
		level     core.ThinkingLevel
		compat    *core.Compat
		want      map[string]any // expected keys; nil value means absent
	}{
		{"medium", "gpt-5", "openai", "https://api.openai.com/v1", true, core.ThinkingMedium, nil,
			map[string]any{"reasoning_effort": "medium"}},
		{"minimal", "gpt-5", "openai", "https://api.openai.com/v1", true, core.ThinkingMinimal, nil,
			map[string]any{"reasoning_effort": "minimal"}},
		{"off sends nothing", "gpt-5", "openai", "https://api.openai.com/v1", true, core.ThinkingOff, nil,
			map[string]any{"reasoning_effort": nil}},
		{"not a reasoning model", "gpt-4o", "openai", "https://api.openai.com/v1", false, core.ThinkingHigh, nil,
			map[string]any{"reasoning_effort": nil}},
		{"xhigh clamped", "gpt-5", "openai", "https://api.openai.com/v1", true, core.ThinkingXHigh, nil,
			map[string]any{"reasoning_effort": "high"}},
		{"xhigh kept on gpt-5.2", "gpt-5.2", "openai", "https://api.openai.com/v1", true, core.ThinkingXHigh, nil,
			map[string]any{"reasoning_effort": "xhigh"}},
		{"effort map", "m", "custom", "http://localhost:8000/v1", true, core.ThinkingHigh,
			&core.Compat{ReasoningEffortMap: map[string]string{"high": "max"}},
			map[string]any{"reasoning_effort": "max"}},
		{"groq qwen3 default", "qwen/qwen3-32b", "groq", "https://api.groq.com/openai/v1", true, core.ThinkingLow, nil,
			map[string]any{"reasoning_effort": "default"}},
		{"unsupported", "grok-4", "xai", "https://api.x.ai/v1", true, core.ThinkingHigh, nil,
			map[string]any{"reasoning_effort": nil}},
		{"compat off", "m", "custom", "http://localhost:8000/v1", true, core.ThinkingHigh,
			&core.Compat{SupportsReasoningEffort: ptr(false)},
			map[string]any{"reasoning_effort": nil}},
		{"openrouter on", "anthropic/claude-haiku-4.5", "openrouter", "https://openrouter.ai/api/v1", true, core.ThinkingLow, nil,
			map[string]any{"reasoning": map[string]any{"effort": "low"}, "reasoning_effort": nil}},
		{"openrouter off", "anthropic/claude-haiku-4.5", "openrouter", "https://openrouter.ai/api/v1", true, core.ThinkingOff, nil,
			map[string]any{"reasoning": map[string]any{"effort": "none"}}},
		{"zai off", "glm-4.6", "zai", "https://api.z.ai/api/coding/paas/v4", true, core.ThinkingOff, nil,
			map[string]any{"enable_thinking": false, "reasoning_effort": nil}},
		{"qwen on", "qwen3", "dashscope", "https://dashscope.example/v1", true, core.ThinkingHigh, &core.Compat{ThinkingFormat: "qwen"},
			map[string]any{"enable_thinking": true, "reasoning_effort": nil}},
		{"qwen chat template", "qwen3", "vllm", "http://localhost:8000/v1", true, core.ThinkingMedium, &core.Compat{ThinkingFormat: "qwen-chat-template"},
			map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := core.Model{ID: tc.id, Provider: tc.provider, BaseURL: tc.baseURL, Reasoning: tc.reasoning, Compat: tc.compat}
			body := requestBody(t, &provider.Request{Model: m, Thinking: tc.level, Messages: []core.Message{userText("hi")}})
			for k, want := range tc.want {
				got, ok := body[k]
				if want == nil {
					if ok {
						t.Errorf("%s = %v, want absent", k, got)
					}
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

func TestCompatFields(t *testing.T) {
	hi := []core.Message{userText("hi")}
	tools := []core.ToolSpec{{Name: "ls", Description: "list", Parameters: json.RawMessage(`{"type":"object"}`)}}

	body := requestBody(t, &provider.Request{Model: openAIModel("https://api.openai.com/v1"), Messages: hi, Tools: tools, MaxTokens: 500})
	if body["store"] != false || body["max_completion_tokens"] != 500.0 || body["max_tokens"] != nil {
		t.Errorf("OpenAI defaults: store=%v max_completion_tokens=%v max_tokens=%v", body["store"], body["max_completion_tokens"], body["max_tokens"])
	}
	if got := toJSON(body["tools"]); got != `[{"function":{"description":"list","name":"ls","parameters":{"type":"object"},"strict":false},"type":"function"}]` {
		t.Errorf("tools = %s", got)
	}

	m := openAIModel("http://localhost:8080/v1")
	m.Compat = &core.Compat{
		SupportsStore: ptr(false), SupportsUsageInStreaming: ptr(false), MaxTokensField: "max_tokens",
		SupportsStrictMode: ptr(false),
	}
	body = requestBody(t, &provider.Request{Model: m, Messages: hi, Tools: tools})
	if _, ok := body["store"]; ok {
		t.Error("store sent although unsupported")
	}
	if _, ok := body["stream_options"]; ok {
		t.Error("stream_options sent although unsupported")
	}
	if body["max_tokens"] != 16384.0 || body["max_completion_tokens"] != nil {
		t.Errorf("max tokens: %v / %v (model maximum expected in max_tokens)", body["max_tokens"], body["max_completion_tokens"])
	}
	if strings.Contains(toJSON(body["tools"]), "strict") {
		t.Errorf("strict sent although unsupported: %s", toJSON(body["tools"]))
	}

	// Detected from the URL, as pi does.
	body = requestBody(t, &provider.Request{Model: core.Model{ID: "m", BaseURL: "https://llm.chutes.ai/v1", MaxTokens: 100}, Messages: hi})
	if body["max_tokens"] != 100.0 || body["store"] != nil {
		t.Errorf("chutes: max_tokens=%v store=%v", body["max_tokens"], body["store"])
	}

	// A history with tool calls needs a tools field even without tools.
	history := []core.Message{
		userText("list"),
		&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: "c1", Name: "ls", Arguments: json.RawMessage(`{}`)}}, StopReason: core.StopToolUse},
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "ls", Content: []core.Content{core.TextBlock("a.go")}},
	}
	body = requestBody(t, &provider.Request{Model: openAIModel(""), Messages: history})
	if toJSON(body["tools"]) != "[]" {
		t.Errorf("tools = %s, want []", toJSON(body["tools"]))
	}

	// Routing preferences go to the gateway that reads them.
	m = core.Model{ID: "x", Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1",
		Compat: &core.Compat{OpenRouterRouting: json.RawMessage(`{"only":["anthropic"]}`)}}
	body = requestBody(t, &provider.Request{Model: m, Messages: hi})
	if toJSON(body["provider"]) != `{"only":["anthropic"]}` {
		t.Errorf("provider = %s", toJSON(body["provider"]))
	}
	m = core.Model{ID: "x", BaseURL: "https://ai-gateway.vercel.sh/v1",
		Compat: &core.Compat{VercelGatewayRouting: json.RawMessage(`{"order":["fireworks"]}`)}}
	body = requestBody(t, &provider.Request{Model: m, Messages: hi})
	if toJSON(body["providerOptions"]) != `{"gateway":{"order":["fireworks"]}}` {
		t.Errorf("providerOptions = %s", toJSON(body["providerOptions"]))
	}

	// OpenAI keys its prompt cache by session.
	body = requestBody(t, &provider.Request{Model: openAIModel("https://api.openai.com/v1"), Messages: hi, SessionID: "s-1"})
	if body["prompt_cache_key"] != "s-1" {
		t.Errorf("prompt_cache_key = %v", body["prompt_cache_key"])
	}
}

// sameModelAnswer is an earlier answer from the model the request goes to.
func sameModelAnswer(m core.Model, content ...core.Content) *core.AssistantMessage {
	return &core.AssistantMessage{Content: content, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: core.StopToolUse}
}

func TestReplay(t *testing.T) {
	m := core.Model{ID: "openai/gpt-oss-20b", API: "openai-completions", Provider: "llamacpp",
		BaseURL: "http://localhost:8080/v1", Reasoning: true, Input: []string{"text", "image"}}
	call := core.Content{Type: core.ContentToolCall, ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path":"a.go"}`)}
	thinking := core.Content{Type: core.ContentThinking, Thinking: "look at a.go", ThinkingSignature: "reasoning_content"}
	result := &core.ToolResultMessage{ToolCallID: "c1", ToolName: "read", Content: []core.Content{core.TextBlock("package a")}}

	t.Run("same model keeps reasoning in its field", func(t *testing.T) {
		msgs := []core.Message{userText("read a.go"), sameModelAnswer(m, thinking, core.TextBlock("Reading."), call), result}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: msgs}))
		want := `[{"content":"read a.go","role":"user"},` +
			`{"content":"Reading.","reasoning_content":"look at a.go","role":"assistant","tool_calls":[{"function":{"arguments":"{\"path\":\"a.go\"}","name":"read"},"id":"c1","type":"function"}]},` +
			`{"content":"package a","role":"tool","tool_call_id":"c1"}]`
		if toJSON(got) != want {
			t.Errorf("messages\n got: %s\nwant: %s", toJSON(got), want)
		}
	})

	t.Run("thinking as text", func(t *testing.T) {
		mm := m
		mm.Compat = &core.Compat{RequiresThinkingAsText: ptr(true)}
		msgs := []core.Message{userText("q"), sameModelAnswer(mm, thinking, core.TextBlock("answer"))}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: mm, Messages: msgs}))[1]
		if toJSON(got) != `{"content":[{"text":"look at a.go","type":"text"},{"text":"answer","type":"text"}],"role":"assistant"}` {
			t.Errorf("assistant = %s", toJSON(got))
		}
	})

	t.Run("other model's thinking becomes text, signatures dropped", func(t *testing.T) {
		other := &core.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude", StopReason: core.StopToolUse,
			Content: []core.Content{
				{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: "EqQBCkgI"},
				{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"},
				{Type: core.ContentToolCall, ID: "toolu_1", Name: "read", Arguments: json.RawMessage(`{}`), ThoughtSignature: "sig"},
			}}
		msgs := []core.Message{userText("q"), other, &core.ToolResultMessage{ToolCallID: "toolu_1", Content: []core.Content{core.TextBlock("ok")}}}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: msgs}))
		if toJSON(got[1]) != `{"content":"hmm","role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"read"},"id":"toolu_1","type":"function"}]}` {
			t.Errorf("assistant = %s", toJSON(got[1]))
		}
	})

	t.Run("responses ids are shortened for other models", func(t *testing.T) {
		long := "call_abc|fc_" + strings.Repeat("x+/=", 100)
		other := &core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopToolUse,
			Content: []core.Content{{Type: core.ContentToolCall, ID: long, Name: "read", Arguments: json.RawMessage(`{}`)}}}
		msgs := []core.Message{userText("q"), other, &core.ToolResultMessage{ToolCallID: long, Content: []core.Content{core.TextBlock("ok")}}}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: openAIModel(""), Messages: msgs}))
		calls := got[1]["tool_calls"].([]any)
		if id := calls[0].(map[string]any)["id"]; id != "call_abc" || got[2]["tool_call_id"] != "call_abc" {
			t.Errorf("ids = %v / %v, want call_abc", id, got[2]["tool_call_id"])
		}
	})

	t.Run("failed answers and their results are dropped, orphaned calls answered", func(t *testing.T) {
		failed := sameModelAnswer(m, core.TextBlock("partial"))
		failed.StopReason = core.StopError
		orphan := &core.ToolResultMessage{ToolCallID: "gone", Content: []core.Content{core.TextBlock("x")}}
		msgs := []core.Message{userText("q"), failed, orphan, userText("again"), sameModelAnswer(m, call), userText("never mind")}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: msgs}))
		var roles []string
		for _, g := range got {
			roles = append(roles, g["role"].(string))
		}
		if strings.Join(roles, ",") != "user,user,assistant,tool,user" {
			t.Fatalf("roles = %v", roles)
		}
		if got[3]["content"] != "No result provided" || got[3]["tool_call_id"] != "c1" {
			t.Errorf("synthetic result = %v", got[3])
		}
	})

	t.Run("empty answers are skipped", func(t *testing.T) {
		empty := sameModelAnswer(m, core.TextBlock("  "))
		empty.StopReason = core.StopEnd
		got := messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: []core.Message{userText("q"), empty, userText("q2")}}))
		if len(got) != 2 {
			t.Errorf("messages = %s", toJSON(got))
		}
	})

	t.Run("tool result name and assistant bridge", func(t *testing.T) {
		mm := m
		mm.Compat = &core.Compat{RequiresToolResultName: ptr(true), RequiresAssistantAfterTool: ptr(true)}
		msgs := []core.Message{userText("q"), sameModelAnswer(mm, call), result, userText("next")}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: mm, Messages: msgs}))
		if got[2]["name"] != "read" {
			t.Errorf("tool message = %v, want name", got[2])
		}
		if got[3]["role"] != "assistant" || got[3]["content"] != "I have processed the tool results." || got[4]["content"] != "next" {
			t.Errorf("bridge = %s", toJSON(got[3:]))
		}
		if got[1]["content"] != "" {
			t.Errorf("assistant content = %v, want empty string", got[1]["content"])
		}
	})

	t.Run("mistral ids", func(t *testing.T) {
		mm := core.Model{ID: "devstral", API: "openai-completions", Provider: "mistral", BaseURL: "https://api.mistral.ai/v1"}
		msgs := []core.Message{userText("q"), sameModelAnswer(mm, core.Content{Type: core.ContentToolCall, ID: "call_1-x", Name: "ls"}),
			&core.ToolResultMessage{ToolCallID: "call_1-x", ToolName: "ls", Content: []core.Content{core.TextBlock("ok")}}}
		got := messagesOf(t, requestBody(t, &provider.Request{Model: mm, Messages: msgs}))
		id := got[1]["tool_calls"].([]any)[0].(map[string]any)["id"]
		if id != "call1xABC" || got[2]["tool_call_id"] != id || got[2]["name"] != "ls" {
			t.Errorf("id = %v, result = %v", id, got[2])
		}
	})

	t.Run("openrouter encrypted reasoning returns with its call", func(t *testing.T) {
		mm := core.Model{ID: "openai/gpt-5", API: "openai-completions", Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1"}
		detail := `{"type":"reasoning.encrypted","id":"c1","data":"enc"}`
		c := call
		c.ThoughtSignature = detail
		got := messagesOf(t, requestBody(t, &provider.Request{Model: mm, Messages: []core.Message{userText("q"), sameModelAnswer(mm, c), result}}))
		if toJSON(got[1]["reasoning_details"]) != `[{"data":"enc","id":"c1","type":"reasoning.encrypted"}]` {
			t.Errorf("reasoning_details = %s", toJSON(got[1]["reasoning_details"]))
		}
	})
}

func TestImages(t *testing.T) {
	img := core.ImageBlock("aGVsbG8=", "image/png")
	user := &core.UserMessage{Content: []core.Content{core.TextBlock("what is this?"), img}}
	call := core.Content{Type: core.ContentToolCall, ID: "c1", Name: "screenshot", Arguments: json.RawMessage(`{}`)}
	shot := &core.ToolResultMessage{ToolCallID: "c1", ToolName: "screenshot", Content: []core.Content{img}}

	m := openAIModel("")
	msgs := []core.Message{user, sameModelAnswer(m, call), shot}
	got := messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: msgs}))
	if toJSON(got[0]["content"]) != `[{"text":"what is this?","type":"text"},{"image_url":{"url":"data:image/png;base64,aGVsbG8="},"type":"image_url"}]` {
		t.Errorf("user content = %s", toJSON(got[0]["content"]))
	}
	if got[2]["role"] != "tool" || got[2]["content"] != "(see attached image)" {
		t.Errorf("tool message = %v", got[2])
	}
	if len(got) != 4 || toJSON(got[3]) != `{"content":[{"text":"Attached image(s) from tool result:","type":"text"},{"image_url":{"url":"data:image/png;base64,aGVsbG8="},"type":"image_url"}],"role":"user"}` {
		t.Errorf("image follow-up = %s", toJSON(got[3:]))
	}

	// A text-only model gets neither; the user's image is named, not
	// dropped silently (pi 0.87's words).
	m.Input = []string{"text"}
	got = messagesOf(t, requestBody(t, &provider.Request{Model: m, Messages: msgs}))
	if len(got) != 3 || toJSON(got[0]["content"]) != `[{"text":"what is this?","type":"text"},{"text":"(image omitted: model does not support images)","type":"text"}]` {
		t.Errorf("text-only model: %s", toJSON(got))
	}
}

func TestHeaders(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, "openai-chat/text.0.sse"))
	m := openAIModel(srv.URL + "/v1/")
	m.Headers = map[string]string{"X-Title": "cairn", "X-Model": "m"}
	req := &provider.Request{Model: m, Messages: []core.Message{userText("hi")}, Headers: map[string]string{"X-Model": "r"}}
	if _, err := New(provider.Options{}).Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path = %s", r.Path)
	}
	if _, ok := r.Header["Authorization"]; ok {
		t.Error("Authorization sent without a key")
	}
	if r.Header.Get("X-Title") != "cairn" || r.Header.Get("X-Model") != "r" {
		t.Errorf("headers = %v", r.Header)
	}
}

// BenchmarkEncodeRequest builds the body of a request that replays a
// 100-turn session, as Stream does before sending it.
func BenchmarkEncodeRequest(b *testing.B) {
	model := openAIModel("")
	req := &provider.Request{Model: model, System: "You are a coding agent.", Messages: providertest.Conversation(model, 100)}
	b.ReportAllocs()
	for b.Loop() {
		c := resolveCompat(&req.Model)
		if _, err := provider.EncodeJSON(buildRequest(req, &c)); err != nil {
			b.Fatal(err)
		}
	}
}
