package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// FuzzReadStream feeds arbitrary bytes to the event decoder: it must never
// panic and must always end the message with a valid stop reason, an error
// message when it failed, and tool arguments that are JSON objects.
func FuzzReadStream(f *testing.F) {
	for _, rel := range []string{
		"text.0.sse", "tool_use.0.sse", "parallel_tool_use.0.sse", "thinking_tool_use.0.sse",
		"thinking_refusal.sse", "error_overloaded_midstream.sse",
	} {
		f.Add(providertest.Fixture(f, "anthropic/"+rel))
	}
	for _, rel := range []string{"prompt_cache_server_tools.chunks.jsonl", "text_sonnet45.chunks.jsonl"} {
		f.Add(providertest.Chunks(f, "anthropic/"+rel, true).Body)
	}
	f.Add([]byte("data: {\"type\":\"content_block_delta\",\"index\":-1,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"x\"}}\n\n"))
	f.Add([]byte("data: {\"type\":\"content_block_start\",\"index\":99999999999,\"content_block\":{\"type\":\"tool_use\",\"input\":[1]}}\n\ndata: {\"type\":\"message_stop\"}\n\n"))

	model := testModel("")
	f.Fuzz(func(t *testing.T, data []byte) {
		b := provider.NewBuilder(&model, nil)
		msg, err := readStream(context.Background(), bytes.NewReader(data), b, "anthropic", testKey)
		if msg == nil {
			t.Fatal("nil message")
		}
		switch msg.StopReason {
		case core.StopEnd, core.StopLength, core.StopToolUse:
			if err != nil {
				t.Fatalf("stop %q with error %v", msg.StopReason, err)
			}
		case core.StopError, core.StopAborted:
			if err == nil || msg.ErrorMessage == "" {
				t.Fatalf("stop %q without an error (err %v, message %q)", msg.StopReason, err, msg.ErrorMessage)
			}
		default:
			t.Fatalf("invalid stop reason %q", msg.StopReason)
		}
		for _, c := range msg.Content {
			if c.Type == core.ContentToolCall {
				var args map[string]any
				if json.Unmarshal(c.Arguments, &args) != nil || args == nil {
					t.Fatalf("tool arguments are not a JSON object: %s", c.Arguments)
				}
			}
		}
		if _, err := json.Marshal(msg); err != nil {
			t.Fatalf("message does not serialise: %v", err)
		}
	})
}

// FuzzScanDelta checks the content_block_delta fast path against
// encoding/json: whenever it accepts a payload, encoding/json must accept
// it too and decode the same fields.
func FuzzScanDelta(f *testing.F) {
	for _, rel := range []string{"tool_use.0.sse", "thinking_tool_use.0.sse", "text.0.sse"} {
		for _, line := range bytes.Split(providertest.Fixture(f, "anthropic/"+rel), []byte("\n")) {
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				f.Add(data)
			}
		}
	}
	for _, s := range []string{
		`{"index":3,"delta":{"text":"a\"b\\c\u00e9\ud83d\ude00","type":"text_delta","extra":[1,-2.5e3,{"x":null}]},"type":"content_block_delta"}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","Text":"case"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}}`,
		`{"type":"content_block_delta","index":0,"Usage":1,"delta":{"type":"signature_delta","signature":"s"}}`,
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\xff\"}}",
		`{"type":"content_block_delta","index":007,"delta":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast streamEvent
		var s jsonscan.Scanner
		if !scanDelta(&s, data, &fast) {
			return
		}
		var slow streamEvent
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects (%v): %q", err, data)
		}
		if fast.Type != slow.Type || fast.Index != slow.Index || fast.Delta != slow.Delta {
			t.Fatalf("fast path decoded %+v, encoding/json %+v, from %q", fast, slow, data)
		}
	})
}
