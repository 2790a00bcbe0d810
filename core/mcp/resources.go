package mcp

import (
	"context"
	"encoding/json"
	"errors"
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
	content, err := t.m.ReadResource(ctx, server, uri)
	if err != nil {
		return core.ErrorResult(err.Error())
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
		res, err := t.m.Resources(ctx, name)
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

// Resources lists the resources of the server named name, waiting for the
// server within its timeout.
func (m *Manager) Resources(ctx context.Context, name string) ([]ResourceInfo, error) {
	ctx, cancel, err := m.withinTimeout(ctx, name)
	if err != nil {
		return nil, err
	}
	defer cancel()
	conn, err := m.Conn(ctx, name)
	if err != nil {
		return nil, err
	}
	return conn.ListResources(ctx)
}

// withinTimeout bounds ctx by the timeout of the server named name; it
// fails for a server that is not configured.
func (m *Manager) withinTimeout(ctx context.Context, name string) (context.Context, context.CancelFunc, error) {
	s, ok := m.server(name)
	if !ok {
		return nil, nil, fmt.Errorf("no MCP server named %q is configured", name)
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	return ctx, cancel, nil
}

// ReadResource reads the resource uri of the server named name, waiting
// for the server within its timeout. Its errors are fit for people and
// the model alike.
func (m *Manager) ReadResource(ctx context.Context, name, uri string) ([]core.Content, error) {
	ctx, cancel, err := m.withinTimeout(ctx, name)
	if err != nil {
		return nil, err
	}
	defer cancel()
	conn, err := m.Conn(ctx, name)
	if err != nil {
		return nil, errors.New(modelError(err))
	}
	content, err := conn.ReadResource(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("MCP server %q: read %s: %s", name, uri, modelError(err))
	}
	return content, nil
}

// ResourceRef is a resource a message names as @server:uri.
type ResourceRef struct {
	Server, URI string
}

// String is the reference as written: @server:uri.
func (r ResourceRef) String() string { return "@" + r.Server + ":" + r.URI }

// ResourceRefs returns the resources text names as @server:uri, each once,
// in order: a word that starts with @, then the name of a configured server,
// a colon and a URI. Punctuation that ends a sentence after it, and a
// closing parenthesis without an opening one, are not part of the URI.
func (m *Manager) ResourceRefs(text string) []ResourceRef {
	if m == nil || !strings.Contains(text, "@") {
		return nil
	}
	var out []ResourceRef
	seen := map[ResourceRef]bool{}
	for _, word := range strings.Fields(text) {
		rest, ok := strings.CutPrefix(word, "@")
		if !ok {
			continue
		}
		server, uri, ok := strings.Cut(rest, ":")
		uri = strings.TrimRight(uri, ".,;!?")
		if !strings.Contains(uri, "(") {
			uri = strings.TrimRight(uri, ")")
		}
		if !ok || uri == "" {
			continue
		}
		if _, known := m.server(server); !known {
			continue
		}
		ref := ResourceRef{Server: server, URI: uri}
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	return out
}

// AttachResources reads the resources text names as @server:uri and
// returns text with their text content appended, each after a blank line,
// and their images. The references stay in the text. A resource that
// cannot be read is an error naming it; then nothing should be sent.
func (m *Manager) AttachResources(ctx context.Context, text string) (Expansion, error) {
	exp := Expansion{Text: text}
	for _, ref := range m.ResourceRefs(text) {
		content, err := m.ReadResource(ctx, ref.Server, ref.URI)
		if err != nil {
			return Expansion{}, fmt.Errorf("cannot attach %s: %w", ref, err)
		}
		got := flatten(content)
		if got.Text == "" && len(got.Images) == 0 {
			got.Text = ref.String() + " is empty"
		}
		if got.Text != "" {
			exp.Text += "\n\n" + got.Text
		}
		exp.Images = append(exp.Images, got.Images...)
	}
	return exp, nil
}
