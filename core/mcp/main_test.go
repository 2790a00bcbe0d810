package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// serverModeEnv makes the test binary act as a misbehaving MCP server
// instead of running tests (see TestMain), so the tests need no go run.
const serverModeEnv = "CAIRN_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverModeEnv); mode != "" {
		os.Exit(serveTestServer(mode))
	}
	goleak.VerifyTestMain(m)
}

// testServer is a Server entry running this test binary in mode.
func testServer(t testing.TB, name, mode string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Source: "test", Transport: TransportStdio, Command: exe,
		Env: map[string]string{serverModeEnv: mode}, Dir: t.TempDir(), Timeout: DefaultTimeout}
}

// serveTestServer runs one of the misbehaving servers:
//   - fail: writes a reason to stderr and exits 1 before speaking MCP;
//   - crash: its "crash" tool kills the process mid-call;
//   - hang: its "hang" tool never answers;
//   - malformed: answers tools/call with a line that is not JSON;
//
// and every mode but fail has an "echo" tool that works.
func serveTestServer(mode string) int {
	if mode == "fail" {
		fmt.Fprintln(os.Stderr, "starting test server")
		fmt.Fprintln(os.Stderr, "fatal: TEST_API_KEY is not set")
		return 1
	}
	if mode == "malformed" {
		return serveMalformed()
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "cairn-test-" + mode, Version: "1"}, nil)
	obj := &jsonSchemaObject
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo text back", InputSchema: obj,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + args.Text}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "grow", Description: "Adds a tool named grown", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.AddTool(&sdk.Tool{Name: "grown", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "grown"}}}, nil
			})
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	// A prompt from the start, and grow_prompt adds another.
	hello := func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "hello"}}}}, nil
	}
	s.AddPrompt(&sdk.Prompt{Name: "hello"}, hello)
	s.AddTool(&sdk.Tool{Name: "grow_prompt", Description: "Adds a prompt named grown", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.AddPrompt(&sdk.Prompt{Name: "grown"}, hello)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	// wait reports progress once it runs, then waits for its request to
	// be cancelled; was_cancelled says whether that happened (within 10s).
	cancelled := make(chan struct{})
	var once sync.Once
	s.AddTool(&sdk.Tool{Name: "wait", InputSchema: obj},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: 1, Message: "waiting"})
			}
			<-ctx.Done()
			once.Do(func() { close(cancelled) })
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "was_cancelled", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			answer := "no"
			select {
			case <-cancelled:
				answer = "yes"
			case <-time.After(10 * time.Second):
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: answer}}}, nil
		})
	yes := true
	s.AddTool(&sdk.Tool{Name: mode, Description: "Misbehave", InputSchema: obj, Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "panic: crashing on purpose")
				os.Exit(2)
			case "hang":
				select {} // ignores cancellation too
			}
			return nil, fmt.Errorf("unknown mode %s", mode)
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

var jsonSchemaObject = map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}

// serveMalformed speaks just enough JSON-RPC by hand to get through
// initialize and tools/list, then answers tools/call with garbage.
func serveMalformed() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := os.Stdout
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"malformed","version":"1"}}`, p.ProtocolVersion)
		case "tools/list":
			result = `{"tools":[{"name":"garbage","inputSchema":{"type":"object"}},{"name":"huge","inputSchema":{"type":"object"}},{"name":"long","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			var p struct{ Name string }
			_ = json.Unmarshal(req.Params, &p)
			switch p.Name {
			case "huge":
				// A frame past the client's 16 MiB limit.
				fmt.Fprint(out, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":"`)
				chunk := strings.Repeat("x", 1<<20)
				for range 17 {
					fmt.Fprint(out, chunk)
				}
				fmt.Fprintln(out, `"}]}}`)
				continue
			case "long":
				text := strings.Repeat("a", 40_000) + strings.Repeat("m", 100_000) + strings.Repeat("z", 40_000)
				result = `{"content":[{"type":"text","text":"` + text + `"}]}`
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
				continue
			}
			fmt.Fprintln(out, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":`)
			fmt.Fprintln(out, "this is not json at all")
			continue
		default:
			result = `{}`
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
	return 0
}
