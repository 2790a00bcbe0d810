package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// BenchmarkToolCall measures one call of the Go test server's echo tool
// over stdio: straight through the Conn, and as a core tool (the manager
// lookup, timeout, progress and result conversion cairn adds).
//
//	go test -run XXX -bench ToolCall ./core/mcp/
func BenchmarkToolCall(b *testing.B) {
	m := Start(Config{Servers: []Server{testServer(b, "bench", "hang")}}, Options{})
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	conn, err := m.Conn(ctx, "bench")
	cancel()
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"hi"}`)
	b.Run("conn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := conn.CallTool(context.Background(), "echo", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	var tool core.Tool
	for _, t := range m.LiveTools() {
		if t.Spec().Name == "mcp__bench__echo" {
			tool = t
		}
	}
	b.Run("tool", func(b *testing.B) {
		b.ReportAllocs()
		call := core.ToolCall{ID: "c", Name: "mcp__bench__echo", Arguments: args}
		for b.Loop() {
			res, err := tool.Execute(context.Background(), call, func(core.ToolUpdate) {})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
