package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// The names of the tools that reach MCP tools a session does not declare.
const (
	SearchToolName = "mcp_tool_search"
	CallToolName   = "mcp_call"
)

// DirectBudget is how many bytes of tool specs (names, descriptions,
// schemas) the MCP tools may add to every request; past it a session
// declares only the search and call tools.
const DirectBudget = 32 << 10

// maxSearchResults bounds one search's answer.
const maxSearchResults = 10

// SessionTools returns the MCP tools a session declares. The known tools
// (cached from earlier runs) are declared directly while their specs fit
// DirectBudget. mcp_tool_search and mcp_call are always added: they reach
// every tool of every ready server, including tools that appeared after
// the session started, and tools left undeclared for the budget. A call
// through mcp_call is approved as a call of the tool it names (see
// WithHints).
func SessionTools(m *Manager, known []core.Tool) []core.Tool {
	size := 0
	for _, t := range known {
		spec := t.Spec()
		size += len(spec.Name) + len(spec.Description) + len(spec.Parameters)
	}
	g := &gateway{m: m, known: known}
	out := []core.Tool{&searchTool{g}, &callTool{g}}
	if size <= DirectBudget {
		out = append(slices.Clip(known), out...)
	}
	return out
}

// gateway finds MCP tools by name among the live and the known ones.
type gateway struct {
	m     *Manager
	known []core.Tool
}

// all returns every reachable tool, live ones first, without duplicates.
func (g *gateway) all() []*Tool {
	seen := map[string]bool{}
	var out []*Tool
	for _, list := range [][]core.Tool{g.m.LiveTools(), g.known} {
		for _, t := range list {
			mt, ok := t.(*Tool)
			if ok && !seen[mt.name] {
				seen[mt.name] = true
				out = append(out, mt)
			}
		}
	}
	return out
}

func (g *gateway) find(name string) *Tool {
	for _, t := range g.all() {
		if t.name == name {
			return t
		}
	}
	return nil
}

// searchTool finds MCP tools by words of their names and descriptions.
type searchTool struct{ g *gateway }

func (t *searchTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: SearchToolName,
		Description: "Search the tools of the connected MCP servers by keywords; returns each match's name, description and parameter schema. Call a match directly if it is among your tools, otherwise through " + CallToolName + ".",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"Keywords; empty lists every tool"}}}`)}
}

// Category is info: searching reads cairn's own list, not a server.
func (t *searchTool) Category() core.ApprovalCategory { return core.CategoryInfo }
func (t *searchTool) Kind() core.ToolKind             { return core.KindSearch }

func (t *searchTool) Execute(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal(call.Arguments, &args)
	words := strings.Fields(strings.ToLower(args.Query))
	type hit struct {
		tool  *Tool
		score int
	}
	var hits []hit
	for _, tl := range t.g.all() {
		hay := strings.ToLower(tl.name + " " + tl.info.Name + " " + tl.info.Title + " " + tl.info.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(hay, w) {
				score++
			}
		}
		if score > 0 || len(words) == 0 {
			hits = append(hits, hit{tl, score})
		}
	}
	if len(hits) == 0 {
		return core.TextResult("No MCP tool matches; servers still starting may add more (try again later)."), nil
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score })
	var b strings.Builder
	if len(words) == 0 {
		for _, h := range hits {
			fmt.Fprintf(&b, "%s  %s\n", h.tool.name, firstLine(h.tool.Spec().Description))
		}
		return core.TextResult(b.String()), nil
	}
	for _, h := range hits[:min(len(hits), maxSearchResults)] {
		spec := h.tool.Spec()
		fmt.Fprintf(&b, "## %s\n%s\nparameters: %s\n\n", spec.Name, strings.TrimSpace(spec.Description), spec.Parameters)
	}
	return core.ToolResult{Content: capText([]core.Content{core.TextBlock(b.String())}, "")}, nil
}

// callTool calls any reachable MCP tool by name.
type callTool struct{ g *gateway }

func (t *callTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: CallToolName,
		Description: "Call an MCP tool found with " + SearchToolName + " that is not among your tools.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"tool":{"type":"string","description":"The tool's full name, mcp__<server>__<tool>"},` +
			`"arguments":{"type":"object","description":"The tool's arguments"}},"required":["tool"]}`)}
}

func (t *callTool) Category() core.ApprovalCategory { return core.CategoryMCP }
func (t *callTool) Kind() core.ToolKind             { return core.KindOther }

// parse reads the name and arguments of a call of mcp_call.
func (t *callTool) parse(call core.ToolCall) (string, core.ToolCall, error) {
	var args struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	canonical, err := core.CheckArguments(t.Spec(), call.Arguments)
	if err != nil {
		return "", core.ToolCall{}, err
	}
	if err := json.Unmarshal(canonical, &args); err != nil || args.Tool == "" {
		return "", core.ToolCall{}, fmt.Errorf("%s needs the tool's name in \"tool\" and its arguments in \"arguments\"", CallToolName)
	}
	if len(args.Arguments) == 0 || string(args.Arguments) == "null" {
		args.Arguments = json.RawMessage(`{}`)
	}
	return args.Tool, core.ToolCall{ID: call.ID, Name: args.Tool, Arguments: args.Arguments}, nil
}

// inner resolves a call of mcp_call to the tool it names and that tool's
// own call.
func (t *callTool) inner(call core.ToolCall) (*Tool, core.ToolCall, error) {
	name, innerCall, err := t.parse(call)
	if err != nil {
		return nil, core.ToolCall{}, err
	}
	tool := t.g.find(name)
	if tool == nil {
		return nil, core.ToolCall{}, fmt.Errorf("no MCP tool named %s is available; find tools with %s", name, SearchToolName)
	}
	// The inner arguments are what the server gets and what the approval
	// question judges: held to the named tool's schema as a direct call's.
	if innerCall.Arguments, err = core.CheckArguments(tool.Spec(), innerCall.Arguments); err != nil {
		return nil, core.ToolCall{}, err
	}
	return tool, innerCall, nil
}

// approvalSubject is the tool and call the gate judges for a call of
// mcp_call: the named tool, or a stand-in of that name when it is an MCP
// tool's name (mcp__...) not known yet, or mcp_call itself otherwise.
// A tool of a server still starting is waited for (within the server's
// timeout), so the question can show the tool's hints.
//
// Arguments the named tool (or mcp_call) cannot take unambiguously are the
// error: such a call never runs, so nobody is asked about it.
func (t *callTool) approvalSubject(ctx context.Context, call core.ToolCall) (core.Tool, core.ToolCall, error) {
	tool, innerCall, err := t.inner(call)
	if err == nil {
		return tool, innerCall, nil
	}
	if ae := (*core.ArgumentsError)(nil); errors.As(err, &ae) {
		return nil, core.ToolCall{}, err
	}
	name, innerCall, err := t.parse(call)
	if err != nil || !strings.HasPrefix(name, "mcp__") {
		// Only an MCP tool's name gets a stand-in: a rule remembered for
		// "read_mcp_resource" or "bash" must never come from here.
		return t, call, nil
	}
	for _, st := range t.g.m.Statuses() {
		if strings.HasPrefix(name, "mcp__"+sanitize(st.Server.Name)+"__") && st.State != Ready {
			wait, cancel := context.WithTimeout(ctx, st.Server.Timeout)
			_, err := t.g.m.Conn(wait, st.Server.Name)
			cancel()
			if err == nil {
				tool, innerCall, err := t.inner(call)
				if err == nil {
					return tool, innerCall, nil
				}
				if ae := (*core.ArgumentsError)(nil); errors.As(err, &ae) {
					return nil, core.ToolCall{}, err
				}
			}
		}
	}
	return &Tool{m: t.g.m, info: ToolInfo{Name: name}, name: name}, innerCall, nil
}

func (t *callTool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	tool, innerCall, err := t.inner(call)
	if err != nil {
		return core.ErrorResult(modelError(err)), nil
	}
	return tool.Execute(ctx, innerCall, update)
}
