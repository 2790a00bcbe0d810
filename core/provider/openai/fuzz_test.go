package openai

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// FuzzStream sends arbitrary bytes as the event stream through the real
// Stream path: it must never panic and must always end the message with a
// valid stop reason.
func FuzzStream(f *testing.F) {
	for _, name := range fixtureStreams(f) {
		f.Add(providertest.Fixture(f, name))
	}
	f.Add([]byte(textChunk("a") + "data: {not json\n\n"))
	f.Add([]byte(`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{"}},{"index":0,"id":"b"}]}}]}` + "\n\n"))
	f.Add([]byte(`data: {"error":{"code":502,"message":"x"}}` + "\n\n"))
	f.Add([]byte("event: error\ndata: oops\n\n"))

	p := New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	f.Fuzz(func(t *testing.T, body []byte) {
		p.opts.Client = &memClient{status: 200, body: body}
		req := &provider.Request{Model: openAIModel("http://fuzz.invalid/v1"), Messages: []core.Message{userText("hi")}}
		events := 0
		msg, err := p.Stream(context.Background(), req, func(provider.Event) { events++ })
		if msg == nil {
			t.Fatal("nil message")
		}
		if !validStop(msg.StopReason) {
			t.Fatalf("invalid stop reason %q", msg.StopReason)
		}
		if (msg.StopReason == core.StopError) != (err != nil) {
			t.Fatalf("stop %s with err %v", msg.StopReason, err)
		}
		if events == 0 {
			t.Fatal("no events emitted")
		}
	})
}
