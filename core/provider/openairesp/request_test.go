package openairesp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// encodeBody builds req's wire body as Stream sends it.
func encodeBody(req *provider.Request) ([]byte, error) {
	return provider.EncodeJSON(buildBody(req))
}

func body(t *testing.T, req *provider.Request) map[string]any {
	t.Helper()
	b, err := encodeBody(req)
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSON(t, b)
}

func inputJSON(t *testing.T, req *provider.Request) string {
	t.Helper()
	return toJSON(t, body(t, req)["input"])
}

func TestReasoningParameters(t *testing.T) {
	cases := []struct {
		id        string
		reasoning bool
		level     core.ThinkingLevel
		effort    string // "" = no reasoning parameters
		hint      bool   // the no-reasoning developer message
	}{
		{"gpt-5", true, core.ThinkingOff, "", true},
		{"gpt-5", true, "", "", true},
		{"gpt-5", true, core.ThinkingMinimal, "minimal", false},
		{"gpt-5", true, core.ThinkingLow, "low", false},
		{"gpt-5", true, core.ThinkingMedium, "medium", false},
		{"gpt-5", true, core.ThinkingHigh, "high", false},
		{"gpt-5", true, core.ThinkingXHigh, "high", false},
		{"gpt-5.2", true, core.ThinkingXHigh, "xhigh", false},
		{"gpt-5.1-codex-max", true, core.ThinkingXHigh, "xhigh", false},
		{"gpt-5.10", true, core.ThinkingXHigh, "xhigh", false},
		{"o3", true, core.ThinkingOff, "", false},
		{"o3", true, core.ThinkingXHigh, "high", false},
		{"gpt-4.1", false, core.ThinkingHigh, "", false},
	}
	for _, c := range cases {
		m := testModel("")
		m.ID, m.Name, m.Reasoning = c.id, c.id, c.reasoning
		b := body(t, &provider.Request{Model: m, Thinking: c.level, Messages: []core.Message{userText("q")}})
		r, hasReasoning := b["reasoning"].(map[string]any)
		switch {
		case c.effort == "" && (hasReasoning || b["include"] != nil):
			t.Errorf("%s/%s: unexpected reasoning %v include %v", c.id, c.level, b["reasoning"], b["include"])
		case c.effort != "" && (!hasReasoning || r["effort"] != c.effort || r["summary"] != "auto" || toJSON(t, b["include"]) != `["reasoning.encrypted_content"]`):
			t.Errorf("%s/%s: reasoning %v include %v, want effort %s", c.id, c.level, b["reasoning"], b["include"], c.effort)
		}
		if hint := strings.Contains(toJSON(t, b["input"]), noThinkingHint); hint != c.hint {
			t.Errorf("%s/%s: no-reasoning hint %v, want %v", c.id, c.level, hint, c.hint)
		}
		if b["store"] != false || b["stream"] != true {
			t.Errorf("store %v stream %v", b["store"], b["stream"])
		}
	}
}

func TestRequestFields(t *testing.T) {
	temp := 0.5
	m := testModel("")
	m.Reasoning = false
	m.ID = "gpt-4.1"
	req := &provider.Request{
		Model: m, System: "Be brief.", MaxTokens: 123, Temperature: &temp, SessionID: "sess-1",
		Tools:    []core.ToolSpec{{Name: "noop", Description: "does nothing"}},
		Messages: []core.Message{userText("a <b> & c")},
	}
	b := body(t, req)
	if toJSON(t, b["max_output_tokens"]) != "123" || toJSON(t, b["temperature"]) != "0.5" || b["prompt_cache_key"] != "sess-1" || b["model"] != "gpt-4.1" {
		t.Errorf("body %s", toJSON(t, b))
	}
	if got := toJSON(t, b["tools"]); got != `[{"description":"does nothing","name":"noop","parameters":{"properties":{},"type":"object"},"strict":false,"type":"function"}]` {
		t.Errorf("tools %s", got)
	}
	if got := toJSON(t, b["input"]); got != `[{"content":"Be brief.","role":"system"},{"content":[{"text":"a <b> & c","type":"input_text"}],"role":"user"}]` {
		t.Errorf("input %s", got)
	}
	raw, _ := encodeBody(req)
	if !strings.Contains(string(raw), "a <b> & c") {
		t.Errorf("text was HTML-escaped: %s", raw)
	}
	req.MaxTokens, req.Model.MaxTokens = 0, 0
	if _, ok := body(t, req)["max_output_tokens"]; ok {
		t.Error("max_output_tokens sent without a limit")
	}
}

func TestImages(t *testing.T) {
	img := core.ImageBlock("iVBORw0K", "image/png")
	msgs := []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("look"), img}},
		&core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopToolUse,
			Content: []core.Content{{Type: core.ContentToolCall, ID: "call_1|fc_1", Name: "shot", Arguments: json.RawMessage(`{}`)}}},
		&core.ToolResultMessage{ToolCallID: "call_1|fc_1", ToolName: "shot", Content: []core.Content{img}},
	}
	req := &provider.Request{Model: testModel(""), Thinking: core.ThinkingHigh, Messages: msgs}
	want := `[{"content":[{"text":"look","type":"input_text"},{"detail":"auto","image_url":"data:image/png;base64,iVBORw0K","type":"input_image"}],"role":"user"},` +
		`{"arguments":"{}","call_id":"call_1","id":"fc_1","name":"shot","type":"function_call"},` +
		`{"call_id":"call_1","output":"(see attached image)","type":"function_call_output"},` +
		`{"content":[{"text":"Attached image(s) from tool result:","type":"input_text"},{"detail":"auto","image_url":"data:image/png;base64,iVBORw0K","type":"input_image"}],"role":"user"}]`
	if got := inputJSON(t, req); got != want {
		t.Errorf("input\n got %s\nwant %s", got, want)
	}
	req.Model.Input = []string{"text"}
	msgs[0] = &core.UserMessage{Content: []core.Content{img}}
	want = `[{"content":[{"text":"(image omitted: model does not support images)","type":"input_text"}],"role":"user"},` +
		`{"arguments":"{}","call_id":"call_1","id":"fc_1","name":"shot","type":"function_call"},{"call_id":"call_1","output":"(see attached image)","type":"function_call_output"}]`
	if got := inputJSON(t, req); got != want {
		t.Errorf("text-only model\n got %s\nwant %s", got, want)
	}
}

func TestReplay(t *testing.T) {
	reasoning := `{"id":"rs_1","type":"reasoning","content":[],"encrypted_content":"gAAAAenc","summary":[{"type":"summary_text","text":"hmm"}]}`
	same := func(content ...core.Content) *core.AssistantMessage {
		return &core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopToolUse, Content: content}
	}
	call := core.Content{Type: core.ContentToolCall, ID: "call_1|fc_1", Name: "ls", Arguments: json.RawMessage(`{"p":"."}`)}
	result := &core.ToolResultMessage{ToolCallID: "call_1|fc_1", ToolName: "ls", Content: []core.Content{core.TextBlock("a"), core.TextBlock("b")}}
	cases := []struct {
		name string
		msgs []core.Message
		want string
	}{
		{
			name: "same model: reasoning item, message id and call item id",
			msgs: []core.Message{same(
				core.Content{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: reasoning},
				core.Content{Type: core.ContentText, Text: "Looking.", TextSignature: `{"v":1,"id":"msg_1","phase":"commentary"}`},
				call), result},
			want: `[` + reasoning + `,` +
				`{"content":[{"annotations":[],"text":"Looking.","type":"output_text"}],"id":"msg_1","phase":"commentary","role":"assistant","status":"completed","type":"message"},` +
				`{"arguments":"{\"p\":\".\"}","call_id":"call_1","id":"fc_1","name":"ls","type":"function_call"},` +
				`{"call_id":"call_1","output":"a\nb","type":"function_call_output"}]`,
		},
		{
			name: "reasoning without encrypted content is not replayed, nor is the call's item id",
			msgs: []core.Message{same(
				core.Content{Type: core.ContentThinking, ThinkingSignature: `{"id":"rs_2","type":"reasoning","summary":[]}`},
				core.Content{Type: core.ContentText, Text: "Ok.", TextSignature: "msg_2"},
				call), result},
			want: `[{"content":[{"annotations":[],"text":"Ok.","type":"output_text"}],"id":"msg_2","role":"assistant","status":"completed","type":"message"},` +
				`{"arguments":"{\"p\":\".\"}","call_id":"call_1","name":"ls","type":"function_call"},` +
				`{"call_id":"call_1","output":"a\nb","type":"function_call_output"}]`,
		},
		{
			name: "another model's answer goes back as plain text and calls",
			msgs: []core.Message{
				&core.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude", StopReason: core.StopToolUse, Content: []core.Content{
					{Type: core.ContentThinking, Thinking: "pondering", ThinkingSignature: "sig"},
					{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"},
					{Type: core.ContentText, Text: "Hi", TextSignature: "ignored"},
					{Type: core.ContentToolCall, ID: "toolu_1", Name: "ls", Arguments: json.RawMessage(`{}`)},
				}},
				&core.ToolResultMessage{ToolCallID: "toolu_1", ToolName: "ls", Content: []core.Content{core.TextBlock("x")}},
			},
			want: `[{"content":"pondering","role":"assistant"},{"content":"Hi","role":"assistant"},` +
				`{"arguments":"{}","call_id":"toolu_1","name":"ls","type":"function_call"},{"call_id":"toolu_1","output":"x","type":"function_call_output"}]`,
		},
		{
			name: "same provider, different model: no reasoning, no item ids",
			msgs: []core.Message{&core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5-mini", StopReason: core.StopEnd, Content: []core.Content{
				{Type: core.ContentThinking, Thinking: "", ThinkingSignature: reasoning},
				{Type: core.ContentText, Text: "Hi", TextSignature: "msg_9"},
			}}},
			want: `[{"content":"Hi","role":"assistant"}]`,
		},
		{
			name: "failed answers are dropped and unanswered calls get an error result",
			msgs: []core.Message{
				same(call),
				userText("never mind"),
				&core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopAborted, Content: []core.Content{core.TextBlock("half")}},
				&core.AssistantMessage{API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: core.StopError, Content: []core.Content{call}},
				userText("again"),
			},
			want: `[{"arguments":"{\"p\":\".\"}","call_id":"call_1","id":"fc_1","name":"ls","type":"function_call"},` +
				`{"call_id":"call_1","output":"No result provided","type":"function_call_output"},` +
				`{"content":[{"text":"never mind","type":"input_text"}],"role":"user"},{"content":[{"text":"again","type":"input_text"}],"role":"user"}]`,
		},
		{
			name: "over-long message ids and text without an id",
			msgs: []core.Message{same(
				core.Content{Type: core.ContentText, Text: "A", TextSignature: "msg_" + strings.Repeat("x", 80)},
				core.Content{Type: core.ContentText, Text: "B"},
				core.Content{Type: core.ContentText, Text: ""},
			)},
			want: `[{"content":"A","role":"assistant"},{"content":"B","role":"assistant"}]`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel("")
			m.Reasoning = false
			got := inputJSON(t, &provider.Request{Model: m, Messages: c.msgs})
			if got != compactJSON(t, c.want) {
				t.Errorf("input\n got %s\nwant %s", got, compactJSON(t, c.want))
			}
		})
	}
}

func TestTextSignatureRoundTrip(t *testing.T) {
	for _, c := range []struct{ id, phase string }{{"msg_1", ""}, {"msg_2", "final_answer"}, {"msg_3", "commentary"}} {
		id, phase := parseTextSignature(makeTextSignature(c.id, c.phase))
		if id != c.id || phase != c.phase {
			t.Errorf("%v: got %q %q", c, id, phase)
		}
	}
}

// BenchmarkEncodeRequest builds the body of a request that replays a
// 100-turn session, as Stream does before sending it.
func BenchmarkEncodeRequest(b *testing.B) {
	model := testModel("")
	req := &provider.Request{Model: model, System: "You are a coding agent.", Messages: providertest.Conversation(model, 100)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeBody(req); err != nil {
			b.Fatal(err)
		}
	}
}
