package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// The resource tools' names, as pi, Codex and OpenCode call them.
const (
	ListResourcesTool = "list_mcp_resources"
	ReadResourceTool  = "read_mcp_resource"
)

// ResourceTools returns the tools that list and read the servers'
// resources (the targets of the resource links tool results carry). They
// ask for approval like every MCP tool.
func ResourceTools(m *Manager) []core.Tool {
	return []core.Tool{&resourceTool{m: m, read: false}, &resourceTool{m: m, read: true}}
}

type resourceTool struct {
	m    *Manager
	read bool
}

func (t *resourceTool) Spec() core.ToolSpec {
	if t.read {
		return core.ToolSpec{Name: ReadResourceTool,
			Description: "Read a resource of an MCP server by its URI, such as the target of a resource link in a tool result.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"server":{"type":"string","description":"The MCP server's name"},` +
				`"uri":{"type":"string","description":"The resource's URI"}},"required":["server","uri"]}`)}
	}
	return core.ToolSpec{Name: ListResourcesTool,
		Description: "List the resources MCP servers offer (URI, name, type). Without server, lists every server's.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"server":{"type":"string","description":"Only this MCP server's resources"}}}`)}
}

func (t *resourceTool) Category() core.ApprovalCategory { return core.CategoryMCP }
func (t *resourceTool) Kind() core.ToolKind             { return core.KindRead }

func (t *resourceTool) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if err := json.Unmarshal(call.Arguments, &args); err != nil {
		return core.ErrorResult("invalid arguments: " + err.Error()), nil
	}
	if t.read {
		return t.readOne(ctx, args.Server, args.URI), nil
	}
	return t.list(ctx, args.Server), nil
}

func (t *resourceTool) readOne(ctx context.Context, server, uri string) core.ToolResult {
	if server == "" || uri == "" {
		return core.ErrorResult(ReadResourceTool + " needs server and uri")
	}
	s, ok := t.m.server(server)
	if !ok {
		return core.ErrorResult(fmt.Sprintf("no MCP server named %q is configured", server))
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	conn, err := t.m.Conn(ctx, server)
	if err != nil {
		return core.ErrorResult(modelError(err))
	}
	content, err := conn.ReadResource(ctx, uri)
	if err != nil {
		return core.ErrorResult(fmt.Sprintf("MCP server %q: read %s: %s", server, uri, modelError(err)))
	}
	if len(content) == 0 {
		content = []core.Content{core.TextBlock("(the resource is empty)")}
	}
	return core.ToolResult{Content: capText(content, "")}
}

func (t *resourceTool) list(ctx context.Context, only string) core.ToolResult {
	var names []string
	for _, st := range t.m.Statuses() {
		if !st.Server.Disabled && (only == "" || st.Server.Name == only) {
			names = append(names, st.Server.Name)
		}
	}
	if len(names) == 0 {
		return core.ErrorResult(fmt.Sprintf("no MCP server named %q is configured", only))
	}
	var b strings.Builder
	for _, name := range names {
		s, _ := t.m.server(name)
		cctx, cancel := context.WithTimeout(ctx, s.Timeout)
		conn, err := t.m.Conn(cctx, name)
		var res []ResourceInfo
		if err == nil {
			res, err = conn.ListResources(cctx)
		}
		cancel()
		fmt.Fprintf(&b, "%s:\n", name)
		if err != nil {
			fmt.Fprintf(&b, "  (unavailable: %v)\n", err)
			continue
		}
		if len(res) == 0 {
			b.WriteString("  (no resources)\n")
		}
		for _, r := range res {
			fmt.Fprintf(&b, "  %s  %s", r.URI, r.Name)
			if r.MIMEType != "" {
				fmt.Fprintf(&b, " (%s)", r.MIMEType)
			}
			if r.Description != "" {
				b.WriteString(" - " + firstLine(r.Description))
			}
			b.WriteString("\n")
		}
	}
	return core.ToolResult{Content: capText([]core.Content{core.TextBlock(b.String())}, "")}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// server returns the configuration of the server named name.
func (m *Manager) server(name string) (Server, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.servers[name]
	if !ok {
		return Server{}, false
	}
	return r.status.Server, true
}
