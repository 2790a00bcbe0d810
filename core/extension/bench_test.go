package extension

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// BenchmarkToolRoundTrip is one call of an extension's tool through its
// process: execute_tool out, a tool_update and the result back.
func BenchmarkToolRoundTrip(b *testing.B) {
	m, _, _ := testManager(b, Options{UI: core.UIMethods}, "basic")
	m.opts.Trace = nil
	reg := waitReady(b, m)
	tool := reg.Find("echo")
	call := core.ToolCall{ID: "c", Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res, err := tool.Execute(context.Background(), call, func(core.ToolUpdate) {}); err != nil || res.IsError {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkStartFive starts five extensions and waits until all are
// ready (their initialize answered): what a session's first request waits
// for at most. Start itself returns at once.
func BenchmarkStartFive(b *testing.B) {
	configs := fiveBasic(b)
	b.ReportAllocs()
	for b.Loop() {
		m := New(configs, Options{Cwd: b.TempDir(), Mode: "tui"})
		m.Start()
		waitReady(b, m)
		if len(m.Tools()) != 20 {
			b.Fatalf("tools: %d", len(m.Tools()))
		}
		m.Close()
	}
}

// BenchmarkStartCall is what Start costs the caller: the spawn to first
// frame and to first rpc response do not wait for extensions.
func BenchmarkStartCall(b *testing.B) {
	configs := fiveBasic(b)
	b.StopTimer()
	for range b.N {
		cwd := b.TempDir()
		b.StartTimer()
		m := New(configs, Options{Cwd: cwd, Mode: "tui"})
		m.Start()
		b.StopTimer()
		waitReady(b, m)
		m.Close()
	}
}

// fiveBasic configures five "basic" extensions.
func fiveBasic(b *testing.B) []Config {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	configs := make([]Config, 5)
	for i := range configs {
		configs[i] = Config{Name: string(rune('a' + i)), Command: exe, Env: map[string]string{"CAIRN_EXT_ROLE": "basic"}}
	}
	return configs
}
