package google

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func TestThinkingConfig(t *testing.T) {
	for _, tc := range []struct {
		model string
		level core.ThinkingLevel
		want  string
	}{
		{"gemini-2.5-flash", core.ThinkingMinimal, `{"includeThoughts":true,"thinkingBudget":128}`},
		{"gemini-2.5-flash", core.ThinkingMedium, `{"includeThoughts":true,"thinkingBudget":8192}`},
		{"gemini-2.5-flash", core.ThinkingXHigh, `{"includeThoughts":true,"thinkingBudget":24576}`},
		{"gemini-2.5-flash-lite", core.ThinkingMinimal, `{"includeThoughts":true,"thinkingBudget":512}`},
		{"gemini-2.5-pro", core.ThinkingHigh, `{"includeThoughts":true,"thinkingBudget":32768}`},
		{"gemini-2.5-pro", core.ThinkingLow, `{"includeThoughts":true,"thinkingBudget":2048}`},
		{"gemini-2.0-flash-thinking", core.ThinkingLow, `{"includeThoughts":true,"thinkingBudget":-1}`},
		{"gemini-3-pro-preview", core.ThinkingMinimal, `{"includeThoughts":true,"thinkingLevel":"LOW"}`},
		{"gemini-3-pro-preview", core.ThinkingMedium, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{"gemini-3.1-pro-preview", core.ThinkingHigh, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{"gemini-3-flash-preview", core.ThinkingMinimal, `{"includeThoughts":true,"thinkingLevel":"MINIMAL"}`},
		{"gemini-3-flash-preview", core.ThinkingMedium, `{"includeThoughts":true,"thinkingLevel":"MEDIUM"}`},
		{"gemma-4-27b-it", core.ThinkingLow, `{"includeThoughts":true,"thinkingLevel":"MINIMAL"}`},
		{"gemini-2.5-flash", core.ThinkingOff, `{"thinkingBudget":0}`},
		{"gemini-2.5-flash", "", `{"thinkingBudget":0}`},
		{"gemini-2.5-pro", core.ThinkingOff, `{"thinkingBudget":128}`},
		{"gemini-3-pro-preview", core.ThinkingOff, `{"thinkingLevel":"LOW"}`},
		{"gemini-3-flash-preview", core.ThinkingOff, `{"thinkingLevel":"MINIMAL"}`},
	} {
		m := testModel("", tc.model)
		if got := mustJSON(thinkingFor(&m, tc.level)); got != tc.want {
			t.Errorf("%s/%s: %s, want %s", tc.model, tc.level, got, tc.want)
		}
	}
	plain := testModel("", "gemini-2.0-flash")
	plain.Reasoning = false
	if cfg := thinkingFor(&plain, core.ThinkingHigh); cfg != nil {
		t.Errorf("non-reasoning model got %+v", cfg)
	}
}

func TestStreamURL(t *testing.T) {
	for _, tc := range []struct{ base, id, want string }{
		{"", "gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"},
		{"https://proxy.example/v1beta/", "models/gemini-2.5-pro", "https://proxy.example/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
	} {
		m := core.Model{BaseURL: tc.base, ID: tc.id}
		if got := streamURL(&m); got != tc.want {
			t.Errorf("%q %q: %s", tc.base, tc.id, got)
		}
	}
}

// encodeRequest builds req's wire body as Stream sends it.
func encodeRequest(req *provider.Request) ([]byte, error) {
	return provider.EncodeJSON(buildRequest(req))
}

// encode builds a request body for model from msgs and decodes its contents.
func encodeContents(t *testing.T, model core.Model, msgs ...core.Message) string {
	t.Helper()
	body, err := encodeRequest(&provider.Request{Model: model, Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	return string(v.Contents)
}

func assistant(model string, stop core.StopReason, blocks ...core.Content) *core.AssistantMessage {
	return &core.AssistantMessage{API: API, Provider: "google", Model: model, StopReason: stop, Content: blocks}
}

func call(id, name, args, sig string) core.Content {
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args), ThoughtSignature: sig}
}

func result(id, name, text string, isErr bool, extra ...core.Content) *core.ToolResultMessage {
	return &core.ToolResultMessage{ToolCallID: id, ToolName: name, IsError: isErr, Content: append([]core.Content{core.TextBlock(text)}, extra...)}
}

func TestReplay(t *testing.T) {
	const sig = "c2lnbmF0dXJl"
	img := core.ImageBlock("iVBORw0KGgo=", "image/png")
	for _, tc := range []struct {
		name  string
		model string
		msgs  []core.Message
		want  string
	}{{
		name:  "text, thinking and calls from the same model keep their signatures",
		model: "gemini-2.5-flash",
		msgs: []core.Message{
			userText("hi"),
			assistant("gemini-2.5-flash", core.StopToolUse,
				core.Content{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: sig},
				core.Content{Type: core.ContentText, Text: "let me look", TextSignature: sig},
				call("a", "read", `{"path":"x"}`, sig),
				call("b", "read", `{"path":"y"}`, "")),
			result("a", "read", "X", false),
			result("b", "read", "no such file", true),
		},
		want: `[{"role":"user","parts":[{"text":"hi"}]},` +
			`{"role":"model","parts":[{"text":"hmm","thought":true,"thoughtSignature":"c2lnbmF0dXJl"},{"text":"let me look","thoughtSignature":"c2lnbmF0dXJl"},` +
			`{"thoughtSignature":"c2lnbmF0dXJl","functionCall":{"id":"a","name":"read","args":{"path":"x"}}},{"functionCall":{"id":"b","name":"read","args":{"path":"y"}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"id":"a","name":"read","response":{"output":"X"}}},{"functionResponse":{"id":"b","name":"read","response":{"error":"no such file"}}}]}]`,
	}, {
		name:  "another model's signatures are dropped and its thinking becomes text; gemini 3 gets the sentinel on the first call",
		model: "gemini-3-pro-preview",
		msgs: []core.Message{
			userText("hi"),
			&core.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude", StopReason: core.StopToolUse, Content: []core.Content{
				{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: sig},
				call("toolu_01|weird.id", "read", `{}`, ""),
				call("toolu_02", "read", `{}`, ""),
			}},
			result("toolu_01|weird.id", "read", "ok", false),
			result("toolu_02", "read", "ok", false),
		},
		want: `[{"role":"user","parts":[{"text":"hi"}]},` +
			`{"role":"model","parts":[{"text":"hmm"},{"thoughtSignature":"skip_thought_signature_validator","functionCall":{"id":"toolu_01_weird_id","name":"read","args":{}}},{"functionCall":{"id":"toolu_02","name":"read","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"id":"toolu_01_weird_id","name":"read","response":{"output":"ok"}}},{"functionResponse":{"id":"toolu_02","name":"read","response":{"output":"ok"}}}]}]`,
	}, {
		name:  "failed answers are skipped, unanswered calls get an error result",
		model: "gemini-2.5-flash",
		msgs: []core.Message{
			userText("one"),
			assistant("gemini-2.5-flash", core.StopError, core.Content{Type: core.ContentText, Text: "half"}, call("x", "f", `{}`, "")),
			result("x", "f", "orphan result", false),
			userText("two"),
			assistant("gemini-2.5-flash", core.StopToolUse, call("a", "f", `{}`, ""), call("b", "g", `{}`, "")),
			result("a", "f", "A", false),
			userText("three"),
		},
		want: `[{"role":"user","parts":[{"text":"one"}]},{"role":"user","parts":[{"text":"two"}]},` +
			`{"role":"model","parts":[{"functionCall":{"id":"a","name":"f","args":{}}},{"functionCall":{"id":"b","name":"g","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"id":"a","name":"f","response":{"output":"A"}}},{"functionResponse":{"id":"b","name":"g","response":{"error":"No result provided"}}}]},` +
			`{"role":"user","parts":[{"text":"three"}]}]`,
	}, {
		name:  "images: user images inline, tool result images nested for gemini 3",
		model: "gemini-3-flash-preview",
		msgs: []core.Message{
			&core.UserMessage{Content: []core.Content{core.TextBlock("look"), img, core.TextBlock("  ")}},
			assistant("gemini-3-flash-preview", core.StopToolUse, call("a", "shot", `{}`, sig)),
			&core.ToolResultMessage{ToolCallID: "a", ToolName: "shot", Content: []core.Content{img}},
		},
		want: `[{"role":"user","parts":[{"text":"look"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]},` +
			`{"role":"model","parts":[{"thoughtSignature":"c2lnbmF0dXJl","functionCall":{"id":"a","name":"shot","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"id":"a","name":"shot","response":{"output":"(see attached image)"},"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}}]}]`,
	}, {
		name:  "tool result images for gemini 2.5 follow the batch in their own turn",
		model: "gemini-2.5-flash",
		msgs: []core.Message{
			userText("look"),
			assistant("gemini-2.5-flash", core.StopToolUse, call("a", "shot", `{}`, ""), call("b", "shot", `{}`, "")),
			result("a", "shot", "first", false, img),
			result("b", "shot", "second", false),
		},
		want: `[{"role":"user","parts":[{"text":"look"}]},` +
			`{"role":"model","parts":[{"functionCall":{"id":"a","name":"shot","args":{}}},{"functionCall":{"id":"b","name":"shot","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"id":"a","name":"shot","response":{"output":"first"}}},{"functionResponse":{"id":"b","name":"shot","response":{"output":"second"}}}]},` +
			`{"role":"user","parts":[{"text":"Tool result image:"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}]`,
	}, {
		name:  "a signed empty text part is replayed, an unsigned one is not",
		model: "gemini-3-pro-preview",
		msgs: []core.Message{
			userText("hi"),
			assistant("gemini-3-pro-preview", core.StopEnd,
				core.Content{Type: core.ContentText, Text: "answer"},
				core.Content{Type: core.ContentText, Text: ""},
				core.Content{Type: core.ContentText, Text: "", TextSignature: sig}),
		},
		want: `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"answer"},{"text":"","thoughtSignature":"c2lnbmF0dXJl"}]}]`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := encodeContents(t, testModel("", tc.model), tc.msgs...); got != tc.want {
				t.Errorf("contents\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestImagesForTextOnlyModel(t *testing.T) {
	m := testModel("", "gemma-3-1b")
	m.Input = []string{"text"}
	got := encodeContents(t, m, &core.UserMessage{Content: []core.Content{core.TextBlock("what is this"), core.ImageBlock("AA==", "image/png")}})
	want := `[{"role":"user","parts":[{"text":"what is this"},{"text":"(image omitted: model does not support images)"}]}]`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestToolDeclarations(t *testing.T) {
	body, err := encodeRequest(&provider.Request{
		Model: testModel("", "gemini-2.5-flash"),
		Tools: []core.ToolSpec{
			{Name: "bash", Description: "run", Parameters: json.RawMessage(`{"type":"object","properties":{"cmd":{"anyOf":[{"type":"string"},{"const":1}]}},"$schema":"x"}`)},
			{Name: "now", Description: "time"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	v := decodeJSON(t, body)
	want := `[{"functionDeclarations":[{"description":"run","name":"bash","parametersJsonSchema":{"$schema":"x","properties":{"cmd":{"anyOf":[{"type":"string"},{"const":1}]}},"type":"object"}},{"description":"time","name":"now"}]}]`
	if got := mustJSON(v["tools"]); got != want {
		t.Errorf("tools\n got %s\nwant %s", got, want)
	}
}

// BenchmarkEncodeRequest builds the body of a request that replays a
// 100-turn session, as Stream does before sending it.
func BenchmarkEncodeRequest(b *testing.B) {
	model := testModel("", "gemini-2.5-flash")
	req := &provider.Request{Model: model, System: "You are a coding agent.", Messages: providertest.Conversation(model, 100)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}
