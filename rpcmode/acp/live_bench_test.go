package acp

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// chunkMark finds the numbered chunks ("c0042 ") in written frames.
var chunkMark = regexp.MustCompile(`c(\d{4}) `)

// stampWriter notes when each numbered chunk was written.
type stampWriter struct {
	mu     sync.Mutex
	at     map[int]time.Time
	want   int
	all    chan struct{}
	loaded chan struct{} // closed when session/load is answered
}

func (w *stampWriter) Write(p []byte) (int, error) {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.loaded != nil && strings.Contains(string(p), `"id":2,"result"`) {
		close(w.loaded)
		w.loaded = nil
	}
	for _, m := range chunkMark.FindAllSubmatch(p, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		if _, ok := w.at[n]; !ok {
			w.at[n] = now
			if len(w.at) == w.want {
				close(w.all)
			}
		}
	}
	return len(p), nil
}

// BenchmarkAttachedLag measures what an attached client adds to a streamed
// answer: for each chunk, the time from the owner's subscriber receiving
// it to the attached client's connection being written with it. The model
// streams at about 400 tokens a second, as a fast model does, so chunks
// are not batched by a backlog. Reports the median and the 99th
// percentile per event.
func BenchmarkAttachedLag(b *testing.B) {
	const chunks = 200
	var text strings.Builder
	for i := range chunks {
		fmt.Fprintf(&text, "c%04d ", i)
	}
	var lags []time.Duration
	for range b.N {
		fp := faux.New(faux.Options{ChunkSize: 6, TokensPerSecond: 400}, faux.Response{Text: text.String()})
		sess, err := agent.New(agent.Config{Model: faux.Model,
			Open: func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil }})
		if err != nil {
			b.Fatal(err)
		}
		gate, _ := approval.Open(approval.Config{Dir: b.TempDir()})
		h := Host{Session: sess, Approvals: gate, Cwd: b.TempDir()}
		owner := map[int]time.Time{}
		events, stop := sess.Subscribe()
		settled := make(chan struct{})
		go func() {
			for e := range events {
				switch e := e.(type) {
				case core.MessageUpdate:
					if m := chunkMark.FindStringSubmatch(e.Delta); m != nil {
						n, _ := strconv.Atoi(m[1])
						owner[n] = time.Now()
					}
				case core.Settled:
					close(settled)
				}
			}
		}()
		loaded := make(chan struct{})
		w := &stampWriter{at: map[int]time.Time{}, want: chunks, all: make(chan struct{}), loaded: loaded}
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- ServeLive(context.Background(), pr, w, Host{Version: "bench"}, fixedLive{{Host: h, Front: "bench"}})
		}()
		id := sess.Conversation().ID
		io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
			`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"`+id+`","cwd":"/","mcpServers":[]}}`+"\n")
		// The client is attached once session/load is answered; then the
		// owner prompts.
		select {
		case <-loaded:
		case <-time.After(10 * time.Second):
			b.Fatal("session/load was not answered")
		}
		if err := sess.Prompt("go", nil, agent.BehaviorNone); err != nil {
			b.Fatal(err)
		}
		<-settled
		select {
		case <-w.all:
		case <-time.After(10 * time.Second):
			b.Fatalf("the attached client got %d of %d chunks", len(w.at), chunks)
		}
		stop()
		pw.Close()
		<-done
		sess.Close()
		w.mu.Lock()
		for n, at := range w.at {
			if o, ok := owner[n]; ok {
				lags = append(lags, at.Sub(o))
			}
		}
		w.mu.Unlock()
	}
	slices.Sort(lags)
	if len(lags) > 0 {
		b.ReportMetric(float64(lags[len(lags)/2].Microseconds()), "µs-median-lag/event")
		b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds()), "µs-p99-lag/event")
	}
}
