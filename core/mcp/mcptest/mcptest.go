// Package mcptest runs an mcp.Manager over a fake in-process server, for
// the tests of the front ends (the TUI, rpc mode) that show MCP prompts and
// resources. The mcp package's own tests use real servers from npm.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/mcp"
)

// Server is a fake MCP server: its prompts answer with their name and
// arguments, its resources with their text.
type Server struct {
	// Prompts are the prompts it lists.
	Prompts []mcp.PromptInfo
	// Resources maps a URI to its text; other URIs cannot be read.
	Resources map[string]string
	// Images maps a URI to a PNG image's base64 data.
	Images map[string]string
	// Asked, when set, receives a prompt's name each time one is asked
	// for; with Hang the prompt then never comes (until its context ends).
	Asked chan<- string
	Hang  bool

	mu    sync.Mutex
	dials int
}

// Dials counts the connections made to the server.
func (s *Server) Dials() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dials
}

// Start runs a Manager with s as the server named name and waits until it
// is ready; the Manager is closed when the test ends.
func Start(t testing.TB, name string, s *Server) *mcp.Manager {
	t.Helper()
	m := mcp.Start(mcp.Config{Servers: []mcp.Server{{Name: name, Source: "test", Transport: mcp.TransportHTTP, URL: "http://fake", Timeout: 10 * time.Second}}},
		mcp.Options{Dial: s.dial, Backoff: func(int) time.Duration { return time.Millisecond }})
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := m.Conn(ctx, name); err != nil {
		t.Fatal(err)
	}
	return m
}

func (s *Server) dial(context.Context, mcp.Server, io.Writer) (mcp.Conn, error) {
	s.mu.Lock()
	s.dials++
	s.mu.Unlock()
	return &conn{s: s, closed: make(chan struct{})}, nil
}

type conn struct {
	s      *Server
	closed chan struct{}
	once   sync.Once
}

func (c *conn) ListTools(context.Context) ([]mcp.ToolInfo, error) { return nil, nil }

func (c *conn) CallTool(context.Context, string, json.RawMessage, func(mcp.Progress)) (mcp.Result, error) {
	return mcp.Result{}, fmt.Errorf("the fake server has no tools")
}

func (c *conn) ListResources(context.Context) ([]mcp.ResourceInfo, error) {
	var out []mcp.ResourceInfo
	for uri := range c.s.Resources {
		out = append(out, mcp.ResourceInfo{URI: uri, Name: uri})
	}
	return out, nil
}

func (c *conn) ReadResource(_ context.Context, uri string) ([]core.Content, error) {
	if data, ok := c.s.Images[uri]; ok {
		return []core.Content{core.ImageBlock(data, "image/png")}, nil
	}
	text, ok := c.s.Resources[uri]
	if !ok {
		return nil, fmt.Errorf("Resource %s not found", uri)
	}
	return []core.Content{core.TextBlock(text)}, nil
}

func (c *conn) ListPrompts(context.Context) ([]mcp.PromptInfo, error) { return c.s.Prompts, nil }

// GetPrompt answers "<name>: k=v ..." with the arguments in the prompt's
// order.
func (c *conn) GetPrompt(ctx context.Context, name string, args map[string]string) ([]core.Content, error) {
	if c.s.Asked != nil {
		c.s.Asked <- name
	}
	if c.s.Hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	for _, p := range c.s.Prompts {
		if p.Name != name {
			continue
		}
		text := name + ":"
		for _, a := range p.Arguments {
			if v, ok := args[a.Name]; ok {
				text += " " + a.Name + "=" + v
			}
		}
		return []core.Content{core.TextBlock(text)}, nil
	}
	return nil, fmt.Errorf("Prompt %s not found", name)
}

func (c *conn) ToolsChanged() <-chan struct{}   { return nil }
func (c *conn) PromptsChanged() <-chan struct{} { return nil }
func (c *conn) Wait() error                     { <-c.closed; return nil }
func (c *conn) Close() error                    { c.once.Do(func() { close(c.closed) }); return nil }

// Starting runs a Manager with one server, named name, that never finishes
// starting (its dial waits until the Manager is closed), and returns once
// the Manager has begun to dial it. The Manager is closed when the test
// ends.
func Starting(t testing.TB, name string) *mcp.Manager {
	t.Helper()
	dialed := make(chan struct{}, 1)
	m := mcp.Start(mcp.Config{Servers: []mcp.Server{{Name: name, Source: "test", Transport: mcp.TransportHTTP, URL: "http://fake", Timeout: time.Hour}}},
		mcp.Options{Dial: func(ctx context.Context, _ mcp.Server, _ io.Writer) (mcp.Conn, error) {
			dialed <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}})
	t.Cleanup(m.Close)
	<-dialed
	return m
}
