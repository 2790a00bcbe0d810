package agent

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// A context overflow error compacts the conversation and retries once.
func TestOverflowCompactsAndRetriesOnce(t *testing.T) {
	big := strings.Repeat("y", 4000)
	f := newFixture(t, Config{Compaction: CompactionSettings{Enabled: true, ReserveTokens: 1000, KeepRecentTokens: 500}},
		faux.Response{Text: big}, faux.Response{Text: big}, faux.Response{Text: big})
	for i := 0; i < 3; i++ {
		_ = f.s.Prompt("tell me more "+big[:100], nil, BehaviorNone)
		f.untilSettled()
	}
	var retried *provider.Request
	f.fp.Push(faux.Response{Error: "prompt is too long: 250000 tokens > 200000 maximum"})
	summary := func(*provider.Request) (faux.Response, error) { return faux.Response{Text: "## Goal\nkeep going"}, nil }
	f.fp.PushStep(summary, summary)
	f.fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		retried = req
		return faux.Response{Text: "fits now"}, nil
	})
	_ = f.s.Prompt("one more", nil, BehaviorNone)
	evs := withoutUpdates(f.untilSettled())
	got := names(evs)
	if !strings.Contains(got, "agent_end auto_compaction_start auto_compaction_end agent_start") {
		t.Fatalf("events = %s", got)
	}
	for _, e := range evs {
		if end, ok := e.(core.AutoCompactionEnd); ok && (!end.WillRetry || end.Result == nil) {
			t.Fatalf("compaction end = %+v", end)
		}
	}
	if retried == nil {
		t.Fatal("the prompt was not retried after compaction")
	}
	if _, ok := retried.Messages[0].(*core.UserMessage); !ok || !strings.Contains(retried.Messages[0].(*core.UserMessage).Content[0].Text, "compacted") {
		t.Fatalf("the retry does not start with the summary: %#v", retried.Messages[0])
	}
	for _, m := range retried.Messages {
		if a, ok := m.(*core.AssistantMessage); ok && a.StopReason == core.StopError {
			t.Fatal("the overflow error was sent back to the model")
		}
	}
	if s := evs[len(evs)-1].(core.Settled); s.Error != "" {
		t.Fatalf("settled with %q", s.Error)
	}
}

// BenchmarkLoopDelta measures what the session adds per streamed delta with
// one subscriber: the snapshot, the publish and the delivery.
func BenchmarkLoopDelta(b *testing.B) {
	const deltas = 10000
	text := strings.Repeat("abcd", deltas)
	b.ReportAllocs()
	for b.Loop() {
		fp := faux.New(faux.Options{ChunkSize: 4}, faux.Response{Text: text})
		s, err := New(Config{Model: faux.Model, Open: func(core.Model) (Connection, error) { return Connection{Provider: fp}, nil }})
		if err != nil {
			b.Fatal(err)
		}
		events, stop := s.Subscribe()
		if err := s.Prompt("go", nil, BehaviorNone); err != nil {
			b.Fatal(err)
		}
		n := 0
		for e := range events {
			if _, ok := e.(core.MessageUpdate); ok {
				n++
			}
			if _, ok := e.(core.Settled); ok {
				break
			}
		}
		stop()
		s.Close()
		if n < deltas {
			b.Fatalf("saw %d updates", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
}
