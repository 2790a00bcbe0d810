package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// waitConn is a connection that lasts until it is closed.
type waitConn struct {
	closed chan struct{}
	once   sync.Once
}

func (c *waitConn) ListTools(context.Context) ([]ToolInfo, error) { return nil, nil }
func (c *waitConn) CallTool(context.Context, string, json.RawMessage, func(Progress)) (Result, error) {
	return Result{}, nil
}
func (c *waitConn) ListResources(context.Context) ([]ResourceInfo, error)        { return nil, nil }
func (c *waitConn) ReadResource(context.Context, string) ([]core.Content, error) { return nil, nil }
func (c *waitConn) ListPrompts(context.Context) ([]PromptInfo, error)            { return nil, nil }
func (c *waitConn) GetPrompt(context.Context, string, map[string]string) ([]core.Content, error) {
	return nil, nil
}
func (c *waitConn) ToolsChanged() <-chan struct{}   { return nil }
func (c *waitConn) PromptsChanged() <-chan struct{} { return nil }
func (c *waitConn) Wait() error                     { <-c.closed; return nil }
func (c *waitConn) Close() error                    { c.once.Do(func() { close(c.closed) }); return nil }

// TestServeEndsWhenTheManagerCloses: a connection set just after Close
// listed the open ones is still let go, so Close (and cairn's exit) never
// waits for it forever.
func TestServeEndsWhenTheManagerCloses(t *testing.T) {
	m := Start(Config{}, Options{})
	m.Close()
	conn := &waitConn{closed: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- m.serve(&running{}, conn) }()
	select {
	case <-done:
		_ = conn.Close() // as keep does
	case <-time.After(10 * time.Second):
		t.Fatal("serve went on after the manager closed")
	}
}
