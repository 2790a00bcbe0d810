package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
// the soak: about 107 MB of body. peak-heap-MB is the heap above the
// history's own (live data and garbage not yet collected) while the body
// is read.
func BenchmarkReplay2000Turns(b *testing.B) {
	model := openAIModel("http://bench.invalid/v1")
	msgs := soakHistory(b, model, 2000)
	b.Run("memory", func(b *testing.B) { benchReplay(b, model, msgs) })
	b.Run("http1", func(b *testing.B) { benchReplayHTTP(b, model, msgs, false) })
	b.Run("http2", func(b *testing.B) { benchReplayHTTP(b, model, msgs, true) })
	b.Run("length-pass", func(b *testing.B) {
		// What a Content-Length on a large body would cost: writing the
		// body once more, only to count it.
		req := &provider.Request{Model: model, Messages: msgs}
		c := resolveCompat(&req.Model)
		b.ReportAllocs()
		for range b.N {
			var n countWriter
			if err := provider.WriteJSON(&n, buildRequest(req, &c)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(n))
		}
	})
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// benchReplayHTTP sends the request to a loopback server, over HTTP/1.1 or
// over HTTP/2 with TLS as hosted APIs speak it.
func benchReplayHTTP(b *testing.B, model core.Model, msgs []core.Message, h2 bool) {
	answer := providertest.Fixture(b, "openai-chat/text.0.sse")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			b.Error(err)
		}
		if h2 != (r.ProtoMajor == 2) {
			b.Errorf("request came over %s", r.Proto)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(answer)
	}))
	if h2 {
		srv.EnableHTTP2 = true
		srv.StartTLS()
	} else {
		srv.Start()
	}
	defer srv.Close()
	model.BaseURL = srv.URL + "/v1"
	p := New(provider.Options{Client: srv.Client()})
	req := &provider.Request{Model: model, Messages: msgs, APIKey: testKey}
	b.ReportAllocs()
	for range b.N {
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func benchReplay(b *testing.B, model core.Model, msgs []core.Message) {
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
