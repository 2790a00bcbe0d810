package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// heapDoer reads each request's body as a server would and answers with a
// short stream, noting the largest live heap it sees while reading.
type heapDoer struct {
	answer []byte
	peak   uint64
	sent   int64
}

func (d *heapDoer) Do(r *http.Request) (*http.Response, error) {
	var ms runtime.MemStats
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Body.Read(buf)
		d.sent += int64(n)
		if d.sent%(4<<20) < int64(n) {
			runtime.ReadMemStats(&ms)
			d.peak = max(d.peak, ms.HeapAlloc)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	r.Body.Close()
	runtime.ReadMemStats(&ms)
	d.peak = max(d.peak, ms.HeapAlloc)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(d.answer)), Request: r}, nil
}

// soakHistory is the soak benchmark's conversation (scripts/tuibench
// soak): turns of a prompt, a 2 KB answer with a bash call and its 50 KB
// result, held in a session file as a long session holds it.
func soakHistory(b *testing.B, model core.Model, turns int) []core.Message {
	answer := strings.Repeat("Some **markdown** of the answer, with `code`.\n", 2048/46)
	output := strings.Repeat("a line of the file that bash printed <tag> & \"quotes\"\n", 50<<10/54)
	var msgs []core.Message
	for i := range turns {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			&core.UserMessage{Content: []core.Content{core.TextBlock(fmt.Sprintf("turn %d", i))}},
			&core.AssistantMessage{API: model.API, Provider: model.Provider, Model: model.ID, StopReason: core.StopToolUse,
				Content: []core.Content{core.TextBlock(answer), {Type: core.ContentToolCall, ID: id, Name: "bash",
					Arguments: json.RawMessage(`{"command":"cat file.txt"}`)}}},
			&core.ToolResultMessage{ToolCallID: id, ToolName: "bash", Content: []core.Content{core.TextBlock(output)}})
	}
	stored, _, _ := providertest.StoredHistory(b, msgs)
	return stored
}

// BenchmarkReplay2000Turns builds and sends the request of turn 2,000 of
// the soak: about 107 MB of body. peak-heap-MB is the live heap above the
// history's own while the body is read.
func BenchmarkReplay2000Turns(b *testing.B) {
	model := openAIModel("http://bench.invalid/v1")
	msgs := soakHistory(b, model, 2000)
	d := &heapDoer{answer: providertest.Fixture(b, "openai-chat/text.0.sse")}
	p := New(provider.Options{Client: d})
	req := &provider.Request{Model: model, Messages: msgs, APIKey: testKey}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.SetBytes(d.sent / int64(b.N))
	b.ReportMetric(float64(d.peak-min(d.peak, base))/(1<<20), "peak-heap-MB")
}
