package openairesp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// FuzzStream feeds arbitrary bytes as the response body through the real
// Stream path: it must never panic and must always end the message with a
// valid stop reason that agrees with the error.
func FuzzStream(f *testing.F) {
	dir := filepath.Join(providertest.FixtureDir(f), fixtureDir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.sse"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add(providertest.Chunks(f, fixtureDir+"/error_insufficient_quota.chunks.jsonl", true).Body)
	f.Add([]byte(sse("response.output_item.added", `{"output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"n"}}`) +
		sse("response.function_call_arguments.delta", `{"output_index":0,"delta":"{\"a\":"}`) +
		sse("response.output_item.done", `{"output_index":0,"item":{"type":"function_call"}}`) +
		sse("response.completed", completed)))
	f.Add([]byte("data: {\"type\":\"response.output_item.added\",\"output_index\":-5,\"item\":{\"type\":\"reasoning\"}}\n\ndata: [DONE]\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		req := &provider.Request{Model: testModel("http://fuzz.invalid/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
		var events int
		msg, err := New(provider.Options{Client: memDoer{body: body}}).Stream(context.Background(), req, func(provider.Event) { events++ })
		if msg == nil {
			t.Fatal("nil message")
		}
		if !validStop(msg.StopReason) {
			t.Fatalf("stop reason %q", msg.StopReason)
		}
		if (err != nil) != (msg.StopReason == core.StopError) {
			t.Fatalf("stop %q with err %v", msg.StopReason, err)
		}
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Fatal("API key in error")
		}
		for _, c := range msg.Content {
			if c.Type == core.ContentToolCall && (len(c.Arguments) == 0 || c.Arguments[0] != '{') {
				t.Fatalf("tool call arguments %q", c.Arguments)
			}
		}
		if events < 2 {
			t.Fatalf("%d events", events)
		}
	})
}

// FuzzFastPaths checks the hand-written scanners against encoding/json:
// whenever a scanner accepts an event, encoding/json must accept it too and
// read the same values.
func FuzzFastPaths(f *testing.F) {
	for _, s := range []string{
		`{"type":"response.output_text.delta","content_index":0,"delta":"Oi","item_id":"msg_1","logprobs":[],"obfuscation":"jiWK","output_index":1,"sequence_number":6}`,
		`{"delta":"line\nnext \"quoted\" \u00e9 \ud83d\ude00 \ud800 x\/y","output_index":0}`,
		`{"output_index":-0,"delta":"","x":{"a":[1,2.5e-3,true,false,null,{"b":"\\"}]}}`,
		`{"Delta":"case","output_index":2}`,
		`{"delta":"a","delta":"b"}`,
		` {"output_index":12} `,
		`{"delta":"\u12"}`,
		`{"output_index":01}`,
		`{"output_index":1.5}`,
		`{"delta":"tab	inside"}`,
		`{"type":"response.output_item.done","item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"a\":1}","call_id":"call_1","name":"add"},"output_index":1,"sequence_number":7}`,
		`{"type":"response.function_call_arguments.done","arguments":"{\"location\":\"Florence, Italy\"}","item_id":"fc_1","output_index":1}`,
		`{"item":{"type":"reasoning","id":"rs","summary":[{"text":"x"}]},"output_index":0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s jsonscan.Scanner
		if index, delta, ok := deltaFields(&s, data); ok {
			var ev deltaEvent
			if err := json.Unmarshal(data, &ev); err != nil {
				t.Fatalf("deltaFields accepted %q, encoding/json: %v", data, err)
			}
			if ev.OutputIndex != index || ev.Delta != delta {
				t.Fatalf("%q: deltaFields read (%d, %q), encoding/json (%d, %q)", data, index, delta, ev.OutputIndex, ev.Delta)
			}
		}
		if index, args, ok := argumentsFields(&s, data); ok {
			var ev argumentsDoneEvent
			if err := json.Unmarshal(data, &ev); err != nil {
				t.Fatalf("argumentsFields accepted %q, encoding/json: %v", data, err)
			}
			got, ok := decodeString(&s, args)
			if ev.OutputIndex != index || (ok && got != ev.Arguments) {
				t.Fatalf("%q: argumentsFields read (%d, %q), encoding/json (%d, %q)", data, index, got, ev.OutputIndex, ev.Arguments)
			}
		}
		if index, item, ok := itemFields(&s, data); ok {
			var ev itemEvent
			if err := json.Unmarshal(data, &ev); err != nil {
				t.Fatalf("itemFields accepted %q, encoding/json: %v", data, err)
			}
			if ev.OutputIndex != index || !bytes.Equal(ev.Item, item) {
				t.Fatalf("%q: itemFields read (%d, %q), encoding/json (%d, %q)", data, index, item, ev.OutputIndex, ev.Item)
			}
		}
		if item, args, ok := callFields(&s, data); ok {
			var want struct {
				Type      string `json:"type"`
				ID        string `json:"id"`
				CallID    string `json:"call_id"`
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("callFields accepted %q, encoding/json: %v", data, err)
			}
			got, ok := decodeString(&s, args)
			if item.Type != want.Type || item.ID != want.ID || item.CallID != want.CallID || item.Name != want.Name || (ok && got != want.Arguments) {
				t.Fatalf("%q: callFields read %+v %q, encoding/json %+v", data, item, got, want)
			}
		}
	})
}
