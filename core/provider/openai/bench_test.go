package openai

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

// benchStream runs Stream over body b.N times through an in-memory client
// and reports the cost per delta.
func benchStream(b *testing.B, body []byte, check func(*core.AssistantMessage)) {
	p := New(provider.Options{Client: &memClient{status: 200, body: body}})
	req := &provider.Request{Model: openAIModel("http://bench.invalid/v1"), Messages: []core.Message{userText("hi")}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		msg, err := p.Stream(context.Background(), req, func(provider.Event) {})
		if err != nil {
			b.Fatal(err)
		}
		check(msg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchDeltas), "ns/delta")
}

// BenchmarkTextStream decodes 10,000 text deltas in OpenAI's chunk shape.
func BenchmarkTextStream(b *testing.B) {
	head := `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n"
	tail := `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}` + "\n\n" +
		`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":10000,"total_tokens":10020,"prompt_tokens_details":{"cached_tokens":0}}}` + "\n\n" +
		"data: [DONE]\n\n"
	body := providertest.TextStream(benchDeltas, head, tail, func(i int) string {
		return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"content":"word` + fmt.Sprint(i%10) + ` "},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"abc"}` + "\n\n"
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		if len(msg.Text()) != benchDeltas*6 {
			b.Fatalf("text length %d", len(msg.Text()))
		}
	})
}

// BenchmarkToolCallArguments streams one tool call whose arguments are
// 1 MB, in 10,000 fragments.
func BenchmarkToolCallArguments(b *testing.B) {
	const fragment = 100
	head := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":"{\"content\":\""}}]},"finish_reason":null}]}` + "\n\n"
	tail := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":null}]}` + "\n\n" +
		`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
		"data: [DONE]\n\n"
	piece := strings.Repeat("x", fragment)
	body := providertest.TextStream(benchDeltas, head, tail, func(int) string {
		return `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + piece + `"}}]},"finish_reason":null}]}` + "\n\n"
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		calls := msg.ToolCalls()
		if len(calls) != 1 || len(calls[0].Arguments) != benchDeltas*fragment+len(`{"content":""}`) {
			b.Fatalf("arguments length %d", len(calls[0].Arguments))
		}
	})
}
