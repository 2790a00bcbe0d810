package openairesp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

const benchDeltas = 10000

// benchStream runs Stream over body b.N times and reports the cost per
// delta.
func benchStream(b *testing.B, body []byte, check func(*core.AssistantMessage)) {
	req := &provider.Request{Model: testModel("http://bench.invalid/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
	p := New(provider.Options{Client: memDoer{body: body}})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		msg, err := p.Stream(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		check(msg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchDeltas), "ns/delta")
}

// BenchmarkTextDeltas decodes a 10,000-delta text answer, each delta framed
// as OpenAI sends it (item id, logprobs, obfuscation, sequence number).
func BenchmarkTextDeltas(b *testing.B) {
	head := sse("response.created", `{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}`) +
		sse("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_0f80f320b6d3bc2b016a3c121b2bf481929859fbd5c84b5199","type":"message","status":"in_progress","content":[],"role":"assistant"}}`) +
		sse("response.content_part.added", `{"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}}`)
	tail := sse("response.output_item.done", `{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_0f80f320b6d3bc2b016a3c121b2bf481929859fbd5c84b5199","type":"message","status":"completed","content":[],"role":"assistant"}}`) +
		sse("response.completed", completed)
	body := providertest.TextStream(benchDeltas, head, tail, func(i int) string {
		return sse("response.output_text.delta", fmt.Sprintf(`{"type":"response.output_text.delta","content_index":0,"delta":" word%d","item_id":"msg_0f80f320b6d3bc2b016a3c121b2bf481929859fbd5c84b5199","logprobs":[],"obfuscation":"jiWK3iiUKcoCjS","output_index":0,"sequence_number":%d}`, i%10, i+4))
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		if len(msg.Text()) != benchDeltas*6 {
			b.Fatalf("text length %d", len(msg.Text()))
		}
	})
}

// BenchmarkToolCallArguments decodes a tool call whose arguments are 1 MB,
// streamed in 10,000 deltas and then repeated whole in the done events, as
// the API does.
func BenchmarkToolCallArguments(b *testing.B) {
	chunk := strings.Repeat("x", 100)
	args := `{"content":"` + strings.Repeat(chunk, benchDeltas) + `"}`
	quoted := toJSON(b, args)
	head := sse("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"write"}}`)
	tail := sse("response.function_call_arguments.done", `{"type":"response.function_call_arguments.done","output_index":0,"item_id":"fc_1","arguments":`+quoted+`}`) +
		sse("response.output_item.done", `{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":`+quoted+`,"call_id":"call_1","name":"write"}}`) +
		sse("response.completed", completed)
	body := providertest.TextStream(benchDeltas, head, tail, func(i int) string {
		delta := chunk
		switch i {
		case 0:
			delta = `{"content":"` + chunk
		case benchDeltas - 1:
			delta = chunk + `"}`
		}
		return sse("response.function_call_arguments.delta", `{"type":"response.function_call_arguments.delta","delta":`+toJSON(b, delta)+`,"item_id":"fc_1","obfuscation":"ab","output_index":0,"sequence_number":`+fmt.Sprint(i+2)+`}`)
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		calls := msg.ToolCalls()
		if len(calls) != 1 || len(calls[0].Arguments) != len(args) {
			b.Fatalf("arguments length %d, want %d", len(calls[0].Arguments), len(args))
		}
	})
}
