package openairesp

import (
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// sse frames one named event.
func sse(name, data string) string {
	return "event: " + name + "\ndata: " + data + "\n\n"
}

const completed = `{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":100,"input_tokens_details":{"cached_tokens":80},"output_tokens":7,"total_tokens":107}}}`

func TestStreamEvents(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		check func(t *testing.T, msg *core.AssistantMessage, err error)
	}{
		{
			name: "summary parts are separated by a blank line",
			body: sse("response.output_item.added", `{"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}`) +
				sse("response.reasoning_summary_part.added", `{"output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}`) +
				sse("response.reasoning_summary_text.delta", `{"output_index":0,"delta":"First."}`) +
				sse("response.reasoning_summary_part.done", `{"output_index":0}`) +
				sse("response.reasoning_summary_part.added", `{"output_index":0,"summary_index":1,"part":{"type":"summary_text","text":""}}`) +
				sse("response.reasoning_summary_text.delta", `{"output_index":0,"delta":"Second."}`) +
				sse("response.output_item.done", `{"output_index":0,"item":{"type":"reasoning","id":"rs_1","encrypted_content":"enc","summary":[{"type":"summary_text","text":"First."},{"type":"summary_text","text":"Second."}]}}`) +
				sse("response.completed", completed),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err != nil {
					t.Fatal(err)
				}
				c := msg.Content[0]
				if c.Thinking != "First.\n\nSecond." || !strings.Contains(c.ThinkingSignature, `"encrypted_content":"enc"`) {
					t.Errorf("thinking %q signature %q", c.Thinking, c.ThinkingSignature)
				}
				if u := msg.Usage; u.Input != 20 || u.CacheRead != 80 || u.Output != 7 || u.TotalTokens != 107 {
					t.Errorf("usage %+v", u)
				}
			},
		},
		{
			name: "finished items fill in what the deltas did not carry",
			body: sse("response.output_item.added", `{"output_index":0,"item":{"type":"reasoning","id":"rs_1"}}`) +
				sse("response.output_item.done", `{"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"text":"a"},{"text":"b"}]}}`) +
				sse("response.output_item.added", `{"output_index":1,"item":{"type":"message","id":"msg_1","content":[]}}`) +
				sse("response.output_item.done", `{"output_index":1,"item":{"type":"message","id":"msg_1","phase":"final_answer","content":[{"type":"output_text","text":"Hello"},{"type":"refusal","refusal":" no"}]}}`) +
				sse("response.output_item.added", `{"output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"ls","arguments":""}}`) +
				sse("response.function_call_arguments.done", `{"output_index":2,"arguments":"{\"path\": \".\"}"}`) +
				sse("response.output_item.done", `{"output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"ls","arguments":"{\"path\": \".\"}"}}`) +
				sse("response.output_item.done", `{"output_index":3,"item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"cat","arguments":"{\"f\":1}"}}`) +
				sse("response.completed", completed),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if len(msg.Content) != 4 {
					t.Fatalf("content %s", toJSON(t, msg.Content))
				}
				if msg.Content[0].Thinking != "a\n\nb" || msg.Content[1].Text != "Hello no" {
					t.Errorf("content %s", toJSON(t, msg.Content))
				}
				if sig := msg.Content[1].TextSignature; sig != `{"v":1,"id":"msg_1","phase":"final_answer"}` {
					t.Errorf("text signature %q", sig)
				}
				calls := msg.ToolCalls()
				if string(calls[0].Arguments) != `{"path":"."}` || calls[0].ID != "call_1|fc_1" || calls[1].ID != "call_2|fc_2" || string(calls[1].Arguments) != `{"f":1}` {
					t.Errorf("calls %s", toJSON(t, calls))
				}
				if msg.StopReason != core.StopToolUse {
					t.Errorf("stop %q", msg.StopReason)
				}
			},
		},
		{
			name: "events without names, refusals, unknown events and items",
			body: "data: " + `{"type":"response.created","response":{"status":"in_progress"}}` + "\n\n" +
				"data: " + `{"type":"response.output_item.added","output_index":0,"item":{"type":"web_search_call","id":"ws_1"}}` + "\n\n" +
				"data: " + `{"type":"response.web_search_call.searching","output_index":0}` + "\n\n" +
				"data: " + `{"type":"response.output_item.done","output_index":0,"item":{"type":"web_search_call","id":"ws_1"}}` + "\n\n" +
				"data: " + `{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg_2"}}` + "\n\n" +
				"data: " + `{"type":"response.refusal.delta","output_index":1,"delta":"I can't"}` + "\n\n" +
				"data: " + `{"type":"response.something_new","output_index":1,"delta":"ignored"}` + "\n\n" +
				"data: " + `{"type":"response.output_text.delta","output_index":7,"delta":"stray"}` + "\n\n" +
				"data: " + `{"type":"response.function_call_arguments.delta","output_index":1,"delta":"wrong kind"}` + "\n\n" +
				"data: " + completed + "\n\n" + "data: [DONE]\n\n",
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if msg.Text() != "I can't" || len(msg.Content) != 1 || msg.StopReason != core.StopEnd {
					t.Errorf("content %s stop %q", toJSON(t, msg.Content), msg.StopReason)
				}
			},
		},
		{
			name: "incomplete means the output limit was hit",
			body: sse("response.output_item.added", `{"output_index":0,"item":{"type":"message","id":"m"}}`) +
				sse("response.output_text.delta", `{"output_index":0,"delta":"cut"}`) +
				sse("response.incomplete", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":9}}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err != nil || msg.StopReason != core.StopLength || msg.Text() != "cut" || msg.Usage.Output != 9 {
					t.Errorf("err %v stop %q text %q usage %+v", err, msg.StopReason, msg.Text(), msg.Usage)
				}
			},
		},
		{
			name: "incomplete for another reason, or none, is an error",
			body: sse("response.output_item.added", `{"output_index":0,"item":{"type":"message","id":"m"}}`) +
				sse("response.output_text.delta", `{"output_index":0,"delta":"cut"}`) +
				sse("response.incomplete", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"something_new"}}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != "something_new" || msg.StopReason != core.StopError || msg.Text() != "cut" {
					t.Fatalf("err %#v stop %q text %q", err, msg.StopReason, msg.Text())
				}
				if msg.RawStopReason != "incomplete.something_new" {
					t.Errorf("raw stop reason %q", msg.RawStopReason)
				}
			},
		},
		{
			name: "incomplete without a reason",
			body: sse("response.incomplete", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":null}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err == nil || msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "without saying why") {
					t.Fatalf("err %v stop %q", err, msg.StopReason)
				}
			},
		},
		{
			name: "server error event is retryable",
			body: sse("response.output_item.added", `{"output_index":0,"item":{"type":"message","id":"m"}}`) +
				sse("response.output_text.delta", `{"output_index":0,"delta":"part"}`) +
				sse("error", `{"type":"error","code":"server_error","message":"The server had an error","param":null}`) +
				sse("response.failed", `{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The server had an error"}}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != "server_error" || !perr.Retryable {
					t.Fatalf("err %#v", err)
				}
				if msg.StopReason != core.StopError || msg.Text() != "part" {
					t.Errorf("stop %q text %q", msg.StopReason, msg.Text())
				}
			},
		},
		{
			name: "rate limit in a failed response is retryable",
			body: sse("response.failed", `{"type":"response.failed","response":{"status":"failed","error":{"code":"rate_limit_exceeded","message":"Slow down"}}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != "rate_limit_exceeded" || !perr.Retryable || perr.Message != "Slow down" {
					t.Fatalf("err %#v", err)
				}
			},
		},
		{
			name: "failed without details",
			body: sse("response.failed", `{"type":"response.failed","response":{"status":"failed","error":null}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err == nil || msg.StopReason != core.StopError || !strings.Contains(err.Error(), "failed") {
					t.Fatalf("err %v stop %q", err, msg.StopReason)
				}
			},
		},
		{
			name: "cancelled status in the final event is an error",
			body: sse("response.completed", `{"type":"response.completed","response":{"status":"cancelled"}}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				if err == nil || msg.StopReason != core.StopError {
					t.Fatalf("err %v stop %q", err, msg.StopReason)
				}
			},
		},
		{
			name: "numeric error code",
			body: sse("error", `{"type":"error","code":503,"message":"unavailable"}`),
			check: func(t *testing.T, msg *core.AssistantMessage, err error) {
				var perr *provider.Error
				if !errors.As(err, &perr) || perr.Code != "503" || perr.Message != "unavailable" {
					t.Fatalf("err %#v", err)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tr providertest.Transcript
			srv := providertest.NewServer(t, providertest.SSEBody(c.body))
			req := &provider.Request{Model: testModel(srv.URL), APIKey: testKey}
			msg, err := New(provider.Options{}).Stream(t.Context(), req, tr.Emit)
			c.check(t, msg, err)
			types := tr.Types()
			if len(types) == 0 || types[0] != "start" {
				t.Errorf("events %v", types)
			}
			if last := types[len(types)-1]; (err == nil) != (last == "done") {
				t.Errorf("last event %q with err %v", last, err)
			}
		})
	}
}
