package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolset"
)

// Source offers the tools of a Manager's servers to a session's tool
// registry (a toolset.Source), read afresh for every request: the tools of
// every ready server, declared directly while their specs fit
// DirectBudget; mcp_tool_search and mcp_call, which reach every tool of
// every ready server, declared or not; and the resource tools. It declares
// nothing while no enabled server is configured.
type Source struct {
	m         *Manager
	g         *gateway
	search    *searchTool
	call      *callTool
	resources []core.Tool
}

// NewSource returns the source of m's tools. wait, when not nil, is the
// session's bounded wait for servers still starting (toolset.Registry's
// Wait): mcp_tool_search waits through it before it answers "no match".
func NewSource(m *Manager, wait func(context.Context)) *Source {
	g := &gateway{m: m, wait: wait}
	return &Source{m: m, g: g, search: &searchTool{g}, call: &callTool{g}, resources: ResourceTools(m)}
}

// Part is what the source's parts are: MCP servers.
func (s *Source) Part() string { return "MCP server" }

// Tools returns the tools to declare now.
func (s *Source) Tools() []core.Tool {
	if !s.m.configured() {
		return nil
	}
	live := s.m.LiveTools()
	out := make([]core.Tool, 0, len(live)+2+len(s.resources))
	if specBytes(live) <= DirectBudget {
		out = append(out, live...)
	}
	out = append(out, s.search, s.call)
	return append(out, s.resources...)
}

// specBytes is what tools' specs add to every request.
func specBytes(tools []core.Tool) int {
	size := 0
	for _, t := range tools {
		spec := t.Spec()
		size += len(spec.Name) + len(spec.Description) + len(spec.Parameters)
	}
	return size
}

// Find returns the tool a call of name runs: the gateways, a resource
// tool, any tool of a ready server, or, for a name of a server that is not
// ready, a stand-in that waits for it (or fails at once with its start
// error) and then runs the tool of that name.
func (s *Source) Find(name string) core.Tool {
	if !s.m.configured() {
		return nil
	}
	for _, t := range append([]core.Tool{s.search, s.call}, s.resources...) {
		if t.Spec().Name == name {
			return t
		}
	}
	return s.g.find(name)
}

// Starting names the servers whose first start has not ended.
func (s *Source) Starting() []string { return s.m.Starting() }

// Failures lists the servers whose last start failed, with the error, the
// last lines of their stderr and where their log is.
func (s *Source) Failures() []toolset.Failure {
	var out []toolset.Failure
	for _, st := range s.m.Statuses() {
		if st.Server.Disabled || st.Err == nil || (st.State != Failed && st.State != Stopped) {
			continue
		}
		why := st.Err.Error()
		if st.Stderr != "" {
			why += "\nlast lines of its stderr:\n" + indent(st.Stderr)
		}
		if st.Log != "" {
			why += "\nfull log: " + st.Log
		}
		out = append(out, toolset.Failure{Name: st.Server.Name, Err: why})
	}
	return out
}

// Changed returns a channel closed at the servers' next change.
func (s *Source) Changed() <-chan struct{} { return s.m.Changed() }

// configured reports whether any enabled server was configured or added:
// without one, a session has no MCP tools to declare.
func (m *Manager) configured() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.servers {
		if !r.status.Server.Disabled {
			return true
		}
	}
	return false
}

// laterTool stands for a tool of a server that is not ready, under the
// name the model called: the model saw it in an earlier turn, or the
// server is still starting. It is approved by that name; running it waits
// for the server (a failed server fails it at once) and then runs the
// server's tool of that name.
type laterTool struct {
	g      *gateway
	server Server
	name   string
}

func (t *laterTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: t.name, Description: fmt.Sprintf("A tool of MCP server %q, which is not ready.", t.server.Name),
		// No properties: the server's own schema, unknown until it is
		// ready, judges the arguments when the call runs (Tool.Execute).
		Parameters: json.RawMessage(`{"type":"object"}`)}
}

// Category is mcp, like every tool of a server.
func (t *laterTool) Category() core.ApprovalCategory { return core.CategoryMCP }
func (t *laterTool) Kind() core.ToolKind             { return core.KindOther }

// resolve waits, within the server's timeout, for the server, and returns
// its tool of t's name, or why there is none.
func (t *laterTool) resolve(ctx context.Context) (*Tool, error) {
	wait, cancel := context.WithTimeout(ctx, t.server.Timeout)
	defer cancel()
	if _, err := t.g.m.Conn(wait, t.server.Name); err != nil {
		return nil, err
	}
	if tool, ok := t.g.find(t.name).(*Tool); ok {
		return tool, nil
	}
	return nil, fmt.Errorf("MCP server %q has no tool named %s; find its tools with %s", t.server.Name, t.name, SearchToolName)
}

func (t *laterTool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	tool, err := t.resolve(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return core.ErrorResult("Tool execution was aborted"), nil
		}
		return core.ErrorResult(fmt.Sprintf("%s: %s", t.name, modelError(err))), nil
	}
	return tool.Execute(ctx, call, update)
}

// serverOf returns the configured server whose tools' names begin like
// name, and whether there is one.
func (m *Manager) serverOf(name string) (Status, bool) {
	for _, st := range m.Statuses() {
		s := sanitize(st.Server.Name)
		if st.Server.Disabled {
			continue
		}
		if strings.HasPrefix(name, "mcp__"+s+"__") || strings.HasPrefix(name, "mcp__"+legacy(s)+"__") {
			return st, true
		}
	}
	return Status{}, false
}
