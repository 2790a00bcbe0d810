package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/core/mcp"
)

// GoServer is a real MCP server, the official Go SDK's, served over
// streamable HTTP inside the test process. It has an "echo" tool; AddTool
// adds one while it runs, and the SDK tells connected clients with
// notifications/tools/list_changed. It can hold back its answers to
// initialize, to play a server that is slow to start or never starts.
type GoServer struct {
	// URL is where it listens.
	URL string

	srv   *sdk.Server
	http  *httptest.Server
	delay time.Duration
	gate  chan struct{}
	once  sync.Once
	inits chan struct{}
}

// GoOptions shape a GoServer.
type GoOptions struct {
	// Delay holds back every answer to initialize this long: a server
	// that takes Delay to start, on every connection.
	Delay time.Duration
	// Held holds back every answer to initialize until Open is called: a
	// server that never starts, unless the test lets it.
	Held bool
}

// StartGo starts a GoServer; it stops when the test ends.
func StartGo(t testing.TB, opts GoOptions) *GoServer {
	t.Helper()
	g := &GoServer{delay: opts.Delay, gate: make(chan struct{}), inits: make(chan struct{}, 64)}
	if !opts.Held {
		g.Open()
	}
	g.srv = sdk.NewServer(&sdk.Implementation{Name: "cairn-go-test", Version: "1"}, nil)
	g.AddTool("echo", "")
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return g.srv }, nil)
	g.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.holdInitialize(w, r) {
			return
		}
		handler.ServeHTTP(w, r)
	}))
	g.URL = g.http.URL
	t.Cleanup(func() {
		g.Open() // let held requests end, so the server can close
		g.http.CloseClientConnections()
		g.http.Close()
		// A session whose client went without saying goodbye (a DELETE)
		// would keep its reader waiting after the test.
		var open []*sdk.ServerSession
		for ss := range g.srv.Sessions() {
			open = append(open, ss)
		}
		for _, ss := range open {
			_ = ss.Close()
		}
	})
	return g
}

// holdInitialize holds back a request carrying initialize by the server's
// delay and until its gate opens; it returns true when the request ended
// meanwhile (the client gave up), and was answered with an error.
func (g *GoServer) holdInitialize(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "initialize" {
		return false
	}
	select {
	case g.inits <- struct{}{}:
	default:
	}
	var delay <-chan time.Time
	if g.delay > 0 {
		delay = time.After(g.delay)
	} else {
		ready := make(chan time.Time)
		close(ready)
		delay = ready
	}
	select {
	case <-delay:
	case <-r.Context().Done():
		http.Error(w, "gave up", http.StatusServiceUnavailable)
		return true
	}
	select {
	case <-g.gate:
		return false
	case <-r.Context().Done():
		http.Error(w, "gave up", http.StatusServiceUnavailable)
		return true
	}
}

// Initializing receives a value each time a client sends initialize (it
// keeps up to 64 unread).
func (g *GoServer) Initializing() <-chan struct{} { return g.inits }

// Open lets the held answers to initialize go, and every later one.
func (g *GoServer) Open() { g.once.Do(func() { close(g.gate) }) }

// AddTool adds a tool that answers "<name>: <text argument>"; connected
// clients are told the list changed. description, when not empty,
// replaces the tool's short description (a long one fills the budget of
// declared MCP tools).
func (g *GoServer) AddTool(name, description string) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	if description == "" {
		description = "Answers with " + name + " and its text"
	}
	g.srv.AddTool(&sdk.Tool{Name: name, Description: description, InputSchema: schema},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			out := name + ": " + args.Text
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out}}}, nil
		})
}

// Config is the server as cairn configures it under name, with a timeout
// long enough that cairn's startup wait, not the server's timeout, decides.
func (g *GoServer) Config(name string) mcp.Server {
	return mcp.Server{Name: name, Source: "test", Transport: mcp.TransportHTTP, URL: g.URL + "/mcp", Timeout: time.Minute}
}
