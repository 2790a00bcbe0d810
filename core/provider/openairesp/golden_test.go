package openairesp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func userText(s string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(s)}}
}

// TestGolden decodes every recorded stream for this wire format and pins
// the event transcript and final message.
func TestGolden(t *testing.T) {
	dir := filepath.Join(providertest.FixtureDir(t), fixtureDir)
	var names []string
	for _, pattern := range []string{"*.sse", "*.chunks.jsonl"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			names = append(names, filepath.Base(f))
		}
	}
	if len(names) < 8 {
		t.Fatalf("found only %d fixtures in %s", len(names), dir)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rel := fixtureDir + "/" + name
			var resp providertest.Response
			golden := strings.TrimSuffix(name, ".sse")
			if strings.HasSuffix(name, ".chunks.jsonl") {
				resp = providertest.Chunks(t, rel, true)
				golden = strings.TrimSuffix(name, ".chunks.jsonl")
			} else {
				resp = providertest.SSE(t, rel)
			}
			srv := providertest.NewServer(t, resp)
			var tr providertest.Transcript
			req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
			msg, err := New(provider.Options{}).Stream(context.Background(), req, tr.Emit)
			if msg == nil {
				t.Fatal("nil message")
			}
			providertest.Golden(t, golden, tr.Bytes(msg))
			if strings.HasPrefix(name, "error_") {
				var perr *provider.Error
				if !errors.As(err, &perr) {
					t.Fatalf("err = %v, want *provider.Error", err)
				}
				if msg.StopReason != core.StopError || msg.ErrorMessage == "" {
					t.Errorf("stop %q, error message %q", msg.StopReason, msg.ErrorMessage)
				}
				return
			}
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
		})
	}
}

// TestStopStreams decodes the constructed streams in testdata/stops, each a
// response.incomplete, and checks that the turn ends as the reason says:
// the output limit as StopLength with the cut-off call marked invalid so
// it is not run, the content filter as an error saying so.
func TestStopStreams(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop core.StopReason
		code string // the provider error's, "" for none
		text string
	}{
		{name: "incomplete_max_output_tokens", stop: core.StopLength, text: "I'll write the file."},
		{name: "incomplete_content_filter", stop: core.StopError, code: "content_filter", text: "Sure, here is the first step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", "stops", tc.name+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			srv := providertest.NewServer(t, providertest.SSEBody(string(body)))
			var tr providertest.Transcript
			req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
			msg, err := New(provider.Options{}).Stream(context.Background(), req, tr.Emit)
			if msg.StopReason != tc.stop || msg.Text() != tc.text {
				t.Errorf("stop %s text %q, want %s %q (error %v)", msg.StopReason, msg.Text(), tc.stop, tc.text, err)
			}
			if msg.ResponseModel != "gpt-5-2025-08-07" || !strings.HasPrefix(msg.ResponseID, "resp_") {
				t.Errorf("response model %q id %q", msg.ResponseModel, msg.ResponseID)
			}
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != tc.code || strings.Count(msg.ErrorMessage, tc.code) != 1 {
					t.Errorf("error %v, want code %s named once in %q", err, tc.code, msg.ErrorMessage)
				}
			}
			for _, c := range msg.ToolCalls() {
				if c.InvalidArguments == "" || string(c.Arguments) != "{}" {
					t.Errorf("cut-off call %s: arguments %s, invalid %q; want {} and the text that arrived", c.Name, c.Arguments, c.InvalidArguments)
				}
			}
			providertest.Golden(t, "stops/"+tc.name, tr.Bytes(msg))
		})
	}
}

// TestDecodedContent spells out what the golden files hold for the cases a
// person would notice: the words, the calls, the tokens and why it stopped.
func TestDecodedContent(t *testing.T) {
	stream := func(t *testing.T, resp providertest.Response) (*core.AssistantMessage, error) {
		srv := providertest.NewServer(t, resp)
		req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
		return New(provider.Options{}).Stream(context.Background(), req, nil)
	}
	t.Run("text", func(t *testing.T) {
		msg, err := stream(t, providertest.SSE(t, fixtureDir+"/text.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		if msg.Text() != "Oi!" || msg.StopReason != core.StopEnd {
			t.Errorf("text %q stop %q", msg.Text(), msg.StopReason)
		}
		if u := msg.Usage; u.Input != 19 || u.Output != 118 || u.CacheRead != 0 || u.TotalTokens != 137 {
			t.Errorf("usage %+v", u)
		}
		if len(msg.Content) != 2 || msg.Content[0].Type != core.ContentThinking || msg.Content[1].TextSignature != "msg_0f80f320b6d3bc2b016a3c121b2bf481929859fbd5c84b5199" {
			t.Errorf("content %s", toJSON(t, msg.Content))
		}
	})
	t.Run("tool call", func(t *testing.T) {
		msg, err := stream(t, providertest.SSE(t, fixtureDir+"/tool_call.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		calls := msg.ToolCalls()
		if len(calls) != 1 || msg.StopReason != core.StopToolUse {
			t.Fatalf("calls %s stop %q", toJSON(t, calls), msg.StopReason)
		}
		c := calls[0]
		if c.ID != "call_nYgMM3oZuxort2H8Ky4uP5RE|fc_0967f4efea4061d0016a3c1223286481a0b6b3834cdd7c6574" || c.Name != "weather" || string(c.Arguments) != `{"location":"Florence, Italy"}` {
			t.Errorf("call %s", toJSON(t, c))
		}
	})
	t.Run("parallel tool calls", func(t *testing.T) {
		msg, err := stream(t, providertest.SSE(t, fixtureDir+"/parallel_tool_calls.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		calls := msg.ToolCalls()
		if len(calls) != 2 || calls[0].Name != "add" || calls[1].Name != "multiply" || string(calls[1].Arguments) != `{"a":2,"b":3}` {
			t.Errorf("calls %s", toJSON(t, calls))
		}
	})
	t.Run("reasoning summary", func(t *testing.T) {
		msg, err := stream(t, providertest.SSE(t, fixtureDir+"/reasoning_summary_tool_call.0.sse"))
		if err != nil {
			t.Fatal(err)
		}
		th := msg.Content[0]
		if th.Type != core.ContentThinking || !strings.HasPrefix(th.Thinking, "**Getting weather info**\n\nI need to respond") {
			t.Fatalf("thinking block %q", th.Thinking)
		}
		var item struct {
			ID               string `json:"id"`
			Type             string `json:"type"`
			EncryptedContent string `json:"encrypted_content"`
			Summary          []struct {
				Text string `json:"text"`
			} `json:"summary"`
		}
		if err := json.Unmarshal([]byte(th.ThinkingSignature), &item); err != nil {
			t.Fatal(err)
		}
		if item.Type != "reasoning" || !strings.HasPrefix(item.EncryptedContent, "gAAAA") || len(item.Summary) != 1 || item.Summary[0].Text != th.Thinking {
			t.Errorf("signature item %+v", item)
		}
	})
	t.Run("insufficient quota", func(t *testing.T) {
		msg, err := stream(t, providertest.Chunks(t, fixtureDir+"/error_insufficient_quota.chunks.jsonl", true))
		var perr *provider.Error
		if !errors.As(err, &perr) || perr.Code != "insufficient_quota" || perr.Retryable {
			t.Fatalf("err = %#v", err)
		}
		if !strings.Contains(msg.ErrorMessage, "You exceeded your current quota") {
			t.Errorf("error message %q", msg.ErrorMessage)
		}
	})
}

// conversation is the exchange a cassette recorded.
type conversation struct {
	name     string
	system   string
	user     string
	tools    []core.ToolSpec
	thinking core.ThinkingLevel
	noMax    bool
	outputs  map[string]string // tool name -> result text for turn 2
}

var (
	weatherTool = core.ToolSpec{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"properties":{"location":{"description":"the city","type":"string"}},"required":["location"],"type":"object"}`)}
	numbers  = json.RawMessage(`{"properties":{"a":{"description":"first number","type":"integer"},"b":{"description":"second number","type":"integer"}},"required":["a","b"],"type":"object"}`)
	addTool  = core.ToolSpec{Name: "add", Description: "Add two numbers", Parameters: numbers}
	mulTool  = core.ToolSpec{Name: "multiply", Description: "Multiply two numbers", Parameters: numbers}
	cassette = []conversation{
		{name: "text", system: "You are a helpful assistant", user: "Say hi in Portuguese"},
		{name: "tool_call", system: "You are a helpful assistant", user: "What's the weather in Florence,Italy?",
			tools: []core.ToolSpec{weatherTool}, outputs: map[string]string{"weather": "40 C"}},
		{name: "parallel_tool_calls", system: "You are a helpful assistant. Always use both add and multiply at the same time.",
			user: "Add and multiply the number 2 and 3", tools: []core.ToolSpec{addTool, mulTool},
			outputs: map[string]string{"add": "5", "multiply": "6"}},
		{name: "reasoning_summary_tool_call", system: "You are a helpful assistant", user: "What's the weather in Florence, Italy?",
			tools: []core.ToolSpec{weatherTool}, thinking: core.ThinkingHigh, noMax: true, outputs: map[string]string{"weather": "40 C"}},
	}
)

// TestRequestsMatchCassettes sends each recorded conversation, turn 1 and
// then turn 2 built from our own decoded turn-1 answer, and compares the
// bodies with what the cassettes recorded. The cassettes were made by
// another client, so the known, deliberate differences are removed first
// and asserted separately.
func TestRequestsMatchCassettes(t *testing.T) {
	for _, cv := range cassette {
		t.Run(cv.name, func(t *testing.T) {
			want := cassetteBodies(t, cv.name)
			responses := []providertest.Response{providertest.SSE(t, fixtureDir+"/"+cv.name+".0.sse")}
			if len(want) > 1 {
				responses = append(responses, providertest.SSE(t, fixtureDir+"/"+cv.name+".1.sse"))
			}
			srv := providertest.NewServer(t, responses...)
			model := testModel(srv.URL + "/v1")
			model.Headers = map[string]string{"X-Model-Header": "m"}
			if cv.noMax {
				model.MaxTokens = 0
			}
			req := &provider.Request{
				Model: model, System: cv.system, Tools: cv.tools, Thinking: cv.thinking, APIKey: testKey,
				Headers:  map[string]string{"X-Request-Header": "r"},
				Messages: []core.Message{userText(cv.user)},
			}
			p := New(provider.Options{})
			first, err := p.Stream(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) > 1 {
				req.Messages = append(req.Messages, first)
				for _, c := range first.ToolCalls() {
					req.Messages = append(req.Messages, &core.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: []core.Content{core.TextBlock(cv.outputs[c.Name])}})
				}
				second, err := p.Stream(context.Background(), req, nil)
				if err != nil {
					t.Fatal(err)
				}
				if second.StopReason != core.StopEnd || second.Text() == "" {
					t.Errorf("turn 2: stop %q text %q", second.StopReason, second.Text())
				}
			}
			got := srv.Requests()
			if len(got) != len(want) {
				t.Fatalf("%d requests, cassette has %d", len(got), len(want))
			}
			for i, r := range got {
				if r.Method != "POST" || r.Path != "/v1/responses" {
					t.Errorf("request %d: %s %s", i, r.Method, r.Path)
				}
				for k, v := range map[string]string{"Authorization": "Bearer " + testKey, "Content-Type": "application/json",
					"Accept": "text/event-stream", "X-Model-Header": "m", "X-Request-Header": "r"} {
					if r.Header.Get(k) != v {
						t.Errorf("request %d: header %s = %q, want %q", i, k, r.Header.Get(k), v)
					}
				}
				gotBody, wantBody := decodeJSON(t, r.Body), decodeJSON(t, []byte(want[i]))
				reconcile(t, cv, i, first, gotBody, wantBody)
				if !reflect.DeepEqual(gotBody, wantBody) {
					t.Errorf("request %d body differs from the cassette\n got: %s\nwant: %s", i, toJSON(t, gotBody), toJSON(t, wantBody))
				}
			}
		})
	}
}

// reconcile removes the deliberate differences between our request and
// the cassette's, asserting each one.
func reconcile(t *testing.T, cv conversation, turn int, first *core.AssistantMessage, got, want map[string]any) {
	t.Helper()
	// The recording client sent tool_choice "auto", the API's default.
	if tc, ok := want["tool_choice"]; ok && tc != "auto" {
		t.Errorf("cassette tool_choice %v", tc)
	}
	delete(want, "tool_choice")
	input, _ := got["input"].([]any)
	var kept []any
	for _, it := range input {
		m, _ := it.(map[string]any)
		switch {
		case cv.thinking == "" && m["role"] == "developer" && toJSON(t, m["content"]) == `[{"text":"# Juice: 0 !important","type":"input_text"}]`:
			// pi's no-reasoning hint for gpt-5 when thinking is off; the
			// recording client let the model reason instead.
			if last := input[len(input)-1]; !reflect.DeepEqual(last, it) {
				t.Errorf("no-reasoning hint is not the last input item")
			}
			continue
		case m["type"] == "reasoning":
			// The recording client dropped the encrypted reasoning on
			// turn 2; we replay it whole, as the model wants, and keep the
			// call's item id that pairs with it.
			if cv.thinking == "" || turn != 1 {
				t.Errorf("unexpected reasoning item in turn %d", turn+1)
			}
			if toJSON(t, m) != compactJSON(t, first.Content[0].ThinkingSignature) {
				t.Errorf("replayed reasoning item differs from the turn-1 item")
			}
			if enc, _ := m["encrypted_content"].(string); !strings.HasPrefix(enc, "gAAAA") {
				t.Errorf("replayed reasoning item lacks its encrypted content")
			}
			continue
		case m["type"] == "function_call" && m["id"] != nil:
			if cv.thinking == "" {
				t.Errorf("function_call item id sent without a replayable reasoning item: %v", m)
			}
			if id, _ := m["id"].(string); !strings.HasPrefix(id, "fc_") {
				t.Errorf("function_call item id %q", id)
			}
			delete(m, "id")
		}
		kept = append(kept, it)
	}
	got["input"] = kept
	if cv.thinking != "" && turn == 1 && len(kept) == len(input) {
		t.Errorf("turn 2 did not replay the reasoning item")
	}
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return toJSON(t, v)
}
