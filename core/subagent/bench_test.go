package subagent

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/core/toolset"
)

// timed is a provider that adds up how long a child's requests take (the
// child's model time).
type timed struct {
	inner provider.Provider
	mu    sync.Mutex
	child time.Duration
}

func (p *timed) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	start := time.Now()
	m, err := p.inner.Stream(ctx, req, emit)
	if u, ok := req.Messages[0].(*core.UserMessage); ok && core.PlainText(u.Content) != "go" {
		p.mu.Lock()
		p.child += time.Since(start)
		p.mu.Unlock()
	}
	return m, err
}

// BenchmarkTaskOverhead measures what a task call costs beyond its child's
// model time: making the child, its prompt and tools, its events turned
// into progress, its answer turned into the result. Each op is one parent
// prompt with one task call whose child answers at once; the metric is
// the median over the ops of (task call's duration - child's model time).
func BenchmarkTaskOverhead(b *testing.B) {
	dir := b.TempDir()
	fp := faux.New(faux.Options{ChunkSize: 1 << 20})
	tp := &timed{inner: fp}
	gate, _ := approval.Open(approval.Config{Mode: approval.ModeAuto, Dir: dir})
	set := toolset.New(append(tools.New(dir), New(Options{Cwd: dir})), toolset.Options{})
	// A fresh parent per op, so its conversation does not grow.
	newParent := func() (*agent.Session, <-chan core.Event, func()) {
		s, err := agent.New(agent.Config{
			Model:    faux.Model,
			Open:     func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: tp}, nil },
			Toolset:  set,
			Approver: gate,
		})
		if err != nil {
			b.Fatal(err)
		}
		events, stop := s.Subscribe()
		return s, events, func() { stop(); s.Close() }
	}
	overheads := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s, events, done := newParent()
		b.StartTimer()
		fp.Push(faux.Response{Content: []core.Content{taskCall("c1", "explore", "look", "look")}},
			faux.Response{Text: "found"}, faux.Response{Text: "ok"})
		tp.mu.Lock()
		tp.child = 0
		tp.mu.Unlock()
		if err := s.Prompt("go", nil, agent.BehaviorNone); err != nil {
			b.Fatal(err)
		}
		var took time.Duration
		for e := range events {
			if end, ok := e.(core.ToolExecutionEnd); ok && end.Duration != nil {
				took = *end.Duration
			}
			if _, ok := e.(core.Settled); ok {
				break
			}
		}
		tp.mu.Lock()
		overheads = append(overheads, took-tp.child)
		tp.mu.Unlock()
		b.StopTimer()
		done()
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(overheads)
	b.ReportMetric(float64(overheads[len(overheads)/2].Microseconds()), "µs-overhead-median")
}

// BenchmarkIdleChildMemory measures the heap one idle child holds: a
// child session made as a task call makes it (its narrowed tools, gate and
// prompt, kept in memory) that has not been prompted.
func BenchmarkIdleChildMemory(b *testing.B) {
	w, _ := newWorld(b, worldOptions{mode: approval.ModeAuto})
	tool := New(Options{Cwd: w.dir})
	const n = 200
	for range b.N {
		children := make([]*agent.Session, 0, n)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range n {
			c := &child{tool: tool, def: Builtin()[1], args: Args{Description: "d", Prompt: "p"}, parent: w.s, callID: string(rune('a' + i%26))}
			cfg, err := c.config()
			if err != nil {
				b.Fatal(err)
			}
			s, err := agent.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			children = append(children, s)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/idle-child")
		for _, s := range children {
			s.Close()
		}
	}
}
