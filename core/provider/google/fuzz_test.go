package google

import (
	"bytes"
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// FuzzStream feeds arbitrary bodies to the decoder: it must never panic and
// must always end the message with a valid stop reason.
func FuzzStream(f *testing.F) {
	for _, name := range fixtureStreams(f) {
		f.Add(providertest.Fixture(f, "gemini/"+name))
	}
	f.Add([]byte(okStream))
	f.Add([]byte("data: {\"error\": {\"code\": 429, \"status\": \"RESOURCE_EXHAUSTED\", \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.RetryInfo\", \"retryDelay\": \"1e400s\"}]}}\n\n"))
	f.Add([]byte("data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"f\", \"args\": [1]}}, {\"text\": \"\", \"thought\": true, \"thoughtSignature\": \"x\"}]}, \"finishReason\": \"MAX_TOKENS\"}]}\n\n"))
	f.Add([]byte("data: {\"promptFeedback\": {\"blockReason\": \"OTHER\"}}\r\n\r\n"))
	f.Add([]byte("data: {\"candidates\": null, \"usageMetadata\": {\"promptTokenCount\": -5}}\n\ndata: [DONE]\n\n"))
	model := testModel("", "gemini-3-pro-preview")
	p := New(provider.Options{Now: fixedNow})
	f.Fuzz(func(t *testing.T, body []byte) {
		b := provider.NewBuilder(&model, nil)
		s := &stream{p: p, b: b, name: "google", cur: -1}
		msg, err := s.run(context.Background(), bytes.NewReader(body))
		if msg == nil {
			t.Fatal("nil message")
		}
		switch msg.StopReason {
		case core.StopEnd, core.StopLength, core.StopToolUse:
			if err != nil {
				t.Fatalf("stop %s with error %v", msg.StopReason, err)
			}
		case core.StopError:
			if err == nil || msg.ErrorMessage == "" {
				t.Fatalf("error stop without an error (%v, %q)", err, msg.ErrorMessage)
			}
		default:
			t.Fatalf("invalid stop reason %q", msg.StopReason)
		}
		for _, c := range msg.Content {
			if c.Type == core.ContentToolCall && (len(c.Arguments) == 0 || c.Arguments[0] != '{') {
				t.Fatalf("tool call arguments %q are not an object", c.Arguments)
			}
		}
	})
}
