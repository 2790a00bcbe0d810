package google

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// memDoer answers every request with the same body, in memory, so the
// benchmarks measure decoding rather than the loopback network.
type memDoer struct{ body []byte }

func (d memDoer) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(d.body)),
		Request:    r,
	}, nil
}

const benchDeltas = 10000

// textChunk is shaped like Gemini's real chunks: one text part and the
// running usage, CRLF framed.
func textChunk(i int) string {
	return "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"word " + strconv.Itoa(i) +
		" \"}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 11,\"candidatesTokenCount\": " + strconv.Itoa(i+1) +
		",\"totalTokenCount\": " + strconv.Itoa(i+12) + ",\"promptTokensDetails\": [{\"modality\": \"TEXT\",\"tokenCount\": 11}],\"thoughtsTokenCount\": 206},\"modelVersion\": \"gemini-2.5-flash\",\"responseId\": \"NgCzaZz6I6nUz7IPhsKmmQw\"}\r\n\r\n"
}

const finalChunk = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}]}\r\n\r\n"

func benchStream(b *testing.B, body []byte, check func(*core.AssistantMessage)) {
	p := New(provider.Options{Client: memDoer{body: body}})
	req := &provider.Request{Model: testModel("http://bench.invalid", "gemini-2.5-flash"), Messages: []core.Message{userText("go")}, APIKey: testKey}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, err := p.Stream(context.Background(), req, func(provider.Event) {})
		if err != nil {
			b.Fatal(err)
		}
		check(msg)
	}
}

// BenchmarkTextStream decodes a 10,000-chunk text answer.
func BenchmarkTextStream(b *testing.B) {
	body := providertest.TextStream(benchDeltas, "", finalChunk, textChunk)
	benchStream(b, body, func(msg *core.AssistantMessage) {
		if len(msg.Content) != 1 || msg.Usage.Output != benchDeltas+206 {
			b.Fatalf("content %d blocks, usage %+v", len(msg.Content), msg.Usage)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchDeltas), "ns/delta")
}

// BenchmarkLargeToolCall decodes a function call with 1 MB of arguments.
// Gemini sends a call whole, so the arguments are one event; the
// "many deltas" of the other wire formats become 10,000 string values here.
func BenchmarkLargeToolCall(b *testing.B) {
	var args strings.Builder
	args.WriteString(`{"path":"big.txt","lines":[`)
	line := strings.Repeat("x", 96)
	for i := 0; args.Len() < 1<<20; i++ {
		if i > 0 {
			args.WriteByte(',')
		}
		args.WriteString(`"` + line + `"`)
	}
	args.WriteString(`]}`)
	body := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"write\",\"args\": " + args.String() +
		"},\"thoughtSignature\": \"CiQBvj72+xCKZ6n2ewHIHg3nIWfu6zy4\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 54,\"candidatesTokenCount\": 300000}}\r\n\r\n"
	benchStream(b, []byte(body), func(msg *core.AssistantMessage) {
		if len(msg.Content) != 1 || len(msg.Content[0].Arguments) < 1<<20 {
			b.Fatalf("content %+v", len(msg.Content))
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/call")
}
