package pi

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// settledSink counts the bytes written and signals the first agent_settled.
type settledSink struct {
	mu      sync.Mutex
	n       int
	tail    []byte
	settled chan struct{}
	once    sync.Once
}

var settledFrame = []byte(`{"type":"agent_settled"`)

func (s *settledSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += len(p)
	// Search the end of the previous write too: a frame may be split.
	window := append(s.tail, p[:min(len(p), len(settledFrame))]...)
	if bytes.Contains(window, settledFrame) || bytes.Contains(p, settledFrame) {
		s.once.Do(func() { close(s.settled) })
	}
	s.tail = append(s.tail[:0], p[max(0, len(p)-len(settledFrame)):]...)
	return len(p), nil
}

// streamOnce serves one prompt answered in chunks deltas of "tok " and
// returns the bytes written.
func streamOnce(tb testing.TB, chunks int, filter string) int {
	fp := faux.New(faux.Options{ChunkSize: 4}, faux.Response{Text: strings.Repeat("tok ", chunks)})
	sess, err := agent.New(agent.Config{
		Model: faux.Model,
		Open:  func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
	})
	if err != nil {
		tb.Fatal(err)
	}
	defer sess.Close()
	pr, pw := io.Pipe()
	sink := &settledSink{settled: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), pr, sink, Host{Session: sess}) }()
	io.WriteString(pw, filter+`{"id":"p","type":"prompt","message":"go"}`+"\n")
	<-sink.settled
	pw.Close()
	if err := <-done; err != nil {
		tb.Fatal(err)
	}
	return sink.n
}

// BenchmarkStream2000 streams a 2,000-chunk answer through Serve with the
// faux provider: pi's output shape (every message_update carries the
// message so far, twice) and oh-my-pi's delta-only updates. It reports the
// time per chunk and the bytes written per answer.
func BenchmarkStream2000(b *testing.B) {
	const chunks = 2000
	for _, bc := range []struct{ name, filter string }{
		{"pi-shape", ""},
		{"delta-only", `{"type":"set_event_filter","messageUpdates":"delta"}` + "\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var written int
			for b.Loop() {
				written = streamOnce(b, chunks, bc.filter)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
			b.ReportMetric(float64(written), "stdout-bytes")
		})
	}
}
