package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioMCPEnv makes the test binary a stdio MCP server (the Go SDK's, with
// an echo tool) that writes a line to the file it names when it starts.
const stdioMCPEnv = "CAIRN_TEST_MCP_STDIO"

// runStdioMCP is the test binary as that server.
func runStdioMCP(starts string) int {
	f, err := os.OpenFile(starts, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 1
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	f.Close()
	srv := sdk.NewServer(&sdk.Implementation{Name: "cairn-stdio-test", Version: "1"}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	srv.AddTool(&sdk.Tool{Name: "echo", Description: "Answers with its text", InputSchema: schema},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + args.Text}}}, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// Issue 42: 20 ACP threads in one project, with two MCP servers
// configured, start one process per server, not forty; every thread uses
// them, and they go on while any thread is open.
func TestACPThreadsShareMCPServers(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	t.Chdir(project)
	starts := filepath.Join(t.TempDir(), "starts")
	server := func() map[string]any {
		return map[string]any{"command": os.Args[0], "env": map[string]string{stdioMCPEnv: starts}}
	}
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{"one": server(), "two": server()})
	const threads = 20
	var responses []string
	for i := range threads {
		responses = append(responses,
			fmt.Sprintf(`{"content":[{"type":"toolCall","id":"c%d","name":"mcp__one__echo","arguments":{"text":"thread %d"}},{"type":"toolCall","id":"d%d","name":"mcp__two__echo","arguments":{"text":"thread %d"}}]}`, i, i, i, i),
			`{"text":"used both"}`)
	}
	script := writeScript(t, `{"responses":[`+strings.Join(responses, ",")+`]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script, "CAIRN_ATTACH": "off"})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	var ids []string
	for i := range threads {
		d.send(10+i, "session/new", map[string]any{"cwd": project, "mcpServers": []any{}})
		res := d.await(t, 10+i)
		sid, _ := res["result"].(map[string]any)["sessionId"].(string)
		if sid == "" {
			t.Fatalf("session/new %d: %v; stderr: %s", i, res, d.errb.String())
		}
		ids = append(ids, sid)
	}
	// Every thread calls both servers' tools (yolo: no questions).
	for i, sid := range ids {
		d.send(100+i, "session/set_mode", map[string]any{"sessionId": sid, "modeId": "yolo"})
		d.await(t, 100+i)
		d.send(200+i, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "use them"}}})
		if r := d.await(t, 200+i); fmt.Sprint(r["result"]) != "map[stopReason:end_turn]" {
			t.Fatalf("thread %d: %v; stderr: %s", i, r, d.errb.String())
		}
	}
	b, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n != 2 {
		t.Errorf("%d threads started %d MCP server processes, want 2 (one per server)", threads, n)
	}
	d.in.Close()
	for range d.lines {
	}
	if code := <-d.code; code != exitOK {
		t.Fatalf("exit %d; stderr: %s", code, d.errb.String())
	}
}

// BenchmarkIdleACPThreads opens 50 ACP threads in one project with two MCP
// servers configured and reports the MCP server processes started and the
// Go heap each idle thread holds (after a collection, against the heap
// with the first thread open). Run with -benchtime 1x.
func BenchmarkIdleACPThreads(b *testing.B) {
	const threads = 50
	for range b.N {
		project, home := b.TempDir(), b.TempDir()
		b.Chdir(project)
		starts := filepath.Join(b.TempDir(), "starts")
		server := func() map[string]any {
			return map[string]any{"command": os.Args[0], "env": map[string]string{stdioMCPEnv: starts}}
		}
		writeMCPConfig(b, filepath.Join(home, "mcp.json"), map[string]any{"one": server(), "two": server()})
		d := startACP(b, map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(b, `{"responses":[]}`), "CAIRN_ATTACH": "off"})
		d.send(1, "initialize", map[string]any{"protocolVersion": 1})
		d.await(b, 1)
		var heap0 uint64
		for i := range threads {
			d.send(10+i, "session/new", map[string]any{"cwd": project, "mcpServers": []any{}})
			d.await(b, 10+i)
			if i == 0 {
				heap0 = liveHeap()
			}
		}
		perThread := float64(liveHeap()-heap0) / float64(threads-1)
		d.in.Close()
		for range d.lines {
		}
		<-d.code
		data, _ := os.ReadFile(starts)
		b.ReportMetric(float64(len(strings.Fields(string(data)))), "mcp-processes")
		b.ReportMetric(perThread/1024, "KiB-heap/idle-thread")
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
