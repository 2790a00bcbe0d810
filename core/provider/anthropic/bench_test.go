package anthropic

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// memoryDoer answers every request with the same stream, in memory, so a
// benchmark measures decoding rather than the network.
type memoryDoer struct{ body []byte }

func (m memoryDoer) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(m.body)),
		Request:    r,
	}, nil
}

const (
	benchHead = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-20250514\",\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}\n\n"
	benchTail = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":10000}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

const benchDeltas = 10000

func benchStream(b *testing.B, body []byte, check func(*core.AssistantMessage)) {
	p := New(provider.Options{Client: memoryDoer{body}})
	req := &provider.Request{
		Model:    testModel("http://bench.invalid"),
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("go")}}},
		APIKey:   testKey,
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, err := p.Stream(context.Background(), req, func(provider.Event) {})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			check(msg)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchDeltas), "ns/delta")
}

// BenchmarkTextStream decodes 10,000 text deltas through Stream.
func BenchmarkTextStream(b *testing.B) {
	head := benchHead + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	body := providertest.TextStream(benchDeltas, head, benchTail, func(i int) string {
		return fmt.Sprintf("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"word %d \"}}\n\n", i%100)
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		if n := strings.Count(msg.Text(), "word"); n != benchDeltas {
			b.Fatalf("decoded %d deltas, want %d", n, benchDeltas)
		}
	})
}

// BenchmarkToolCallStream decodes a tool call whose 1 MB of arguments
// arrives in 10,000 input_json_delta fragments.
func BenchmarkToolCallStream(b *testing.B) {
	head := benchHead + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n"
	chunk := strings.Repeat("abcdefghij", 10) // 100 bytes of file content per delta
	body := providertest.TextStream(benchDeltas, head, benchTail, func(i int) string {
		fragment := chunk
		switch i {
		case 0:
			fragment = `{\"path\": \"big.txt\", \"content\": \"` + chunk
		case benchDeltas - 1:
			fragment = chunk + `\"}`
		}
		return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"" + fragment + "\"}}\n\n"
	})
	benchStream(b, body, func(msg *core.AssistantMessage) {
		calls := msg.ToolCalls()
		if len(calls) != 1 || len(calls[0].Arguments) < benchDeltas*100 {
			b.Fatalf("tool call not decoded: %d calls", len(calls))
		}
	})
}
