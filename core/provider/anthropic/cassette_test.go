package anthropic

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// cassetteBodies returns the request bodies recorded in a cassette, in
// interaction order. The recorder writes each body as one single-quoted
// YAML scalar, so no YAML library is needed.
func cassetteBodies(t *testing.T, rel string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(string(providertest.Fixture(t, rel)), "\n") {
		const prefix = "    body: '"
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, "'") {
			continue
		}
		raw := strings.ReplaceAll(line[len(prefix):len(line)-1], "''", "'")
		var body map[string]any
		if err := json.Unmarshal([]byte(raw), &body); err != nil {
			t.Fatalf("%s: request body: %v", rel, err)
		}
		out = append(out, body)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no request bodies found", rel)
	}
	return out
}

// TestCassetteRoundTrip replays each recorded two-turn conversation: turn 1
// is built from the cassette's first request, its answer is decoded from
// the recorded stream, and the second request, which replays that answer
// and the tool results, must say what the recorded second request said.
func TestCassetteRoundTrip(t *testing.T) {
	for _, name := range []string{"text", "tool_use", "parallel_tool_use", "thinking_tool_use"} {
		t.Run(name, func(t *testing.T) {
			bodies := cassetteBodies(t, "anthropic/"+name+".cassette.yaml")
			responses := []providertest.Response{providertest.SSE(t, "anthropic/"+name+".0.sse")}
			if len(bodies) > 1 {
				responses = append(responses, providertest.SSE(t, "anthropic/"+name+".1.sse"))
			}
			srv := providertest.NewServer(t, responses...)
			p := newProvider(srv, nil)
			req := requestFromCassette(t, srv, bodies[0])

			answer, err, _ := stream(t, p, req)
			if err != nil {
				t.Fatal(err)
			}
			if len(bodies) > 1 {
				req.Messages = append(req.Messages, answer)
				req.Messages = append(req.Messages, toolResultsFromCassette(t, bodies[1])...)
				if _, err, _ := stream(t, p, req); err != nil {
					t.Fatal(err)
				}
			}

			got := srv.Requests()
			if len(got) != len(bodies) {
				t.Fatalf("server got %d requests, want %d", len(got), len(bodies))
			}
			for i, want := range bodies {
				r := got[i]
				if r.Method != "POST" || r.Path != "/v1/messages" {
					t.Errorf("request %d: %s %s, want POST /v1/messages", i, r.Method, r.Path)
				}
				if r.Header.Get("X-Api-Key") != testKey || r.Header.Get("Anthropic-Version") != "2023-06-01" ||
					r.Header.Get("Accept") != "text/event-stream" || r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("request %d headers: %v", i, r.Header)
				}
				compareBodies(t, i, requestBody(t, r), want)
			}
		})
	}
}

// requestFromCassette rebuilds the provider.Request that produced a
// recorded first request.
func requestFromCassette(t *testing.T, srv *providertest.Server, body map[string]any) *provider.Request {
	t.Helper()
	req := &provider.Request{Model: testModel(srv.URL), APIKey: testKey}
	req.Model.ID = body["model"].(string)
	req.MaxTokens = int(body["max_tokens"].(float64))
	req.System = body["system"].([]any)[0].(map[string]any)["text"].(string)
	first := body["messages"].([]any)[0].(map[string]any)
	text := first["content"].([]any)[0].(map[string]any)["text"].(string)
	req.Messages = []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock(text)}}}
	tools, _ := body["tools"].([]any)
	for _, raw := range tools {
		tool := raw.(map[string]any)
		schema, err := json.Marshal(tool["input_schema"])
		if err != nil {
			t.Fatal(err)
		}
		req.Tools = append(req.Tools, core.ToolSpec{Name: tool["name"].(string), Description: tool["description"].(string), Parameters: schema})
	}
	if _, ok := body["thinking"]; ok {
		req.Thinking = core.ThinkingLow
	}
	return req
}

// toolResultsFromCassette returns the tool results a recorded second
// request carried, as cairn messages.
func toolResultsFromCassette(t *testing.T, body map[string]any) []core.Message {
	t.Helper()
	msgs := body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	var out []core.Message
	for _, raw := range last["content"].([]any) {
		b := raw.(map[string]any)
		if b["type"] != "tool_result" {
			t.Fatalf("last recorded message holds a %v block", b["type"])
		}
		text := b["content"].([]any)[0].(map[string]any)["text"].(string)
		out = append(out, &core.ToolResultMessage{ToolCallID: b["tool_use_id"].(string), Content: []core.Content{core.TextBlock(text)}})
	}
	return out
}

// compareBodies checks our request against the recorded one. Three
// differences are by design: we add prompt-cache breakpoints, we leave
// tool_choice at its default, and our thinking budget comes from the
// thinking level, so max_tokens and budget_tokens are checked for
// consistency rather than equality.
func compareBodies(t *testing.T, i int, got, want map[string]any) {
	t.Helper()
	system := got["system"].([]any)
	if cc := system[len(system)-1].(map[string]any)["cache_control"]; !reflect.DeepEqual(cc, map[string]any{"type": "ephemeral"}) {
		t.Errorf("request %d: last system block cache_control = %v", i, cc)
	}
	msgs := got["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	content := last["content"].([]any)
	if last["role"] != "user" || content[len(content)-1].(map[string]any)["cache_control"] == nil {
		t.Errorf("request %d: no cache breakpoint on the last user block: %v", i, last)
	}
	stripCacheControl(got)
	delete(want, "tool_choice")
	if wt, ok := want["thinking"]; ok {
		gt, _ := got["thinking"].(map[string]any)
		if gt["type"] != wt.(map[string]any)["type"] {
			t.Errorf("request %d: thinking = %v, want type %v", i, gt, wt)
		}
		budget, _ := gt["budget_tokens"].(float64)
		if budget < 1024 || budget >= got["max_tokens"].(float64) {
			t.Errorf("request %d: budget %v does not fit max_tokens %v", i, budget, got["max_tokens"])
		}
		for _, m := range []map[string]any{got, want} {
			delete(m, "thinking")
			delete(m, "max_tokens")
		}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("request %d body differs from the recording\ngot:  %s\nwant: %s", i, g, w)
	}
}

func stripCacheControl(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "cache_control")
		for _, x := range v {
			stripCacheControl(x)
		}
	case []any:
		for _, x := range v {
			stripCacheControl(x)
		}
	}
}
