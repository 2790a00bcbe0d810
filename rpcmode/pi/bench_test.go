package pi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
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

// lineCounter signals each newline written and counts the bytes.
type lineCounter struct {
	n     int64
	lines chan struct{}
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	for range bytes.Count(p, []byte{'\n'}) {
		c.lines <- struct{}{}
	}
	return len(p), nil
}

// BenchmarkGetMessages answers get_messages on a resumed session of 500
// exchanges, each with a 50 KB bash result (a 26 MB file): the frame is
// written as it is encoded, so memory per answer stays near one message.
func BenchmarkGetMessages(b *testing.B) {
	dir := b.TempDir()
	f := session.Store{Dir: dir}.Create(dir)
	out := toolOutput(50 << 10)
	for i := range 500 {
		ts := int64(i)
		for _, m := range []core.Message{
			&core.UserMessage{Content: []core.Content{core.TextBlock("run the tests")}, Timestamp: ts},
			&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: "c", Name: "bash", Arguments: json.RawMessage(`{"command":"go test"}`)}},
				Provider: "faux", Model: "faux-1", StopReason: core.StopToolUse, Timestamp: ts},
			&core.ToolResultMessage{ToolCallID: "c", ToolName: "bash", Content: []core.Content{core.TextBlock(out)}, Timestamp: ts},
			&core.AssistantMessage{Content: []core.Content{core.TextBlock(strings.Repeat("All tests pass. ", 120))},
				Provider: "faux", Model: "faux-1", StopReason: core.StopEnd, Timestamp: ts},
		} {
			if _, err := f.AppendMessage(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	path := f.FilePath()
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	fresh := session.Store{Dir: dir}.Create(dir)
	defer fresh.Close()
	sess, err := agent.New(agent.Config{
		Model: faux.Model,
		Open: func(core.Model) (agent.Connection, error) {
			return agent.Connection{Provider: faux.New(faux.Options{})}, nil
		},
		Conversations: agent.NewFileConversations(session.Store{Dir: dir}, dir, fresh),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	pr, pw := io.Pipe()
	sink := &lineCounter{lines: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), pr, sink, Host{Session: sess}) }()
	io.WriteString(pw, `{"id":"s","type":"switch_session","sessionPath":`+strconv.Quote(path)+"}\n")
	<-sink.lines
	b.ReportAllocs()
	start := sink.n
	for b.Loop() {
		io.WriteString(pw, `{"id":"m","type":"get_messages"}`+"\n")
		<-sink.lines
	}
	b.ReportMetric(float64(sink.n-start)/float64(b.N)/1e6, "MB/answer")
	pw.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
