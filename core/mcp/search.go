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

// gateway finds MCP tools by name among the tools of the ready servers.
type gateway struct {
	m *Manager
	// wait, when set, waits (bounded) for servers still starting.
	wait func(context.Context)
}

// all returns every tool of every ready server.
func (g *gateway) all() []*Tool {
	var out []*Tool
	for _, t := range g.m.LiveTools() {
		if mt, ok := t.(*Tool); ok {
			out = append(out, mt)
		}
	}
	return out
}

// find returns the tool named name: a ready server's tool, or a stand-in
// for a tool of a server that is not ready; nil when no server's tools
// are named so.
func (g *gateway) find(name string) core.Tool {
	all := g.all()
	for _, t := range all {
		if t.name == name {
			return t
		}
	}
	if t := legacyMatch(all, name); t != nil {
		return t
	}
	if st, ok := g.m.serverOf(name); ok && st.State != Ready {
		return &laterTool{g: g, server: st.Server, name: name}
	}
	return nil
}

// legacyMatch is the one tool among all whose name before hyphens were
// kept is name (a call from an older session's history), or nil when none
// or several are.
func legacyMatch(all []*Tool, name string) *Tool {
	if !strings.HasPrefix(name, "mcp__") || strings.Contains(name, "-") {
		return nil
	}
	var found *Tool
	for _, t := range all {
		if t.name != name && LegacyToolName(t.server.Name, t.info.Name) == name {
			if found != nil {
				return nil
			}
			found = t
		}
	}
	return found
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

func (t *searchTool) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal(call.Arguments, &args)
	words := strings.Fields(strings.ToLower(args.Query))
	hits := t.match(words)
	if len(hits) == 0 && t.g.wait != nil && len(t.g.m.Starting()) > 0 {
		// A server still starting may have the tool: wait for it (within
		// the session's limit) before answering that nothing matches.
		t.g.wait(ctx)
		hits = t.match(words)
	}
	if len(hits) == 0 {
		if starting := t.g.m.Starting(); len(starting) > 0 {
			return core.TextResult(fmt.Sprintf("No MCP tool matches; MCP servers still starting may add more: %s (try again later).", strings.Join(starting, ", "))), nil
		}
		return core.TextResult("No MCP tool matches."), nil
	}
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

// searchHit is a tool matching a search, scored by the words it matches.
type searchHit struct {
	tool  *Tool
	score int
}

// match returns the tools matching words, best first; no words match all.
func (t *searchTool) match(words []string) []searchHit {
	var hits []searchHit
	for _, tl := range t.g.all() {
		hay := strings.ToLower(tl.name + " " + tl.info.Name + " " + tl.info.Title + " " + tl.info.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(hay, w) {
				score++
			}
		}
		if score > 0 || len(words) == 0 {
			hits = append(hits, searchHit{tl, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b searchHit) int { return b.score - a.score })
	return hits
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

// inner resolves a call of mcp_call to the tool it names (a stand-in when
// its server is not ready) and that tool's own call.
func (t *callTool) inner(call core.ToolCall) (core.Tool, core.ToolCall, error) {
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
	name, innerCall, err := t.parse(call)
	if ae := (*core.ArgumentsError)(nil); errors.As(err, &ae) {
		return nil, core.ToolCall{}, err
	}
	if err != nil || !strings.HasPrefix(name, "mcp__") {
		// Only an MCP tool's name gets a stand-in: a rule remembered for
		// "read_mcp_resource" or "bash" must never come from here.
		return t, call, nil
	}
	if tool := t.g.find(name); tool != nil {
		tool = resolved(ctx, tool)
		// What the question judges is what the server gets: held to the
		// named tool's schema as a direct call's arguments are.
		if innerCall.Arguments, err = core.CheckArguments(tool.Spec(), innerCall.Arguments); err != nil {
			return nil, core.ToolCall{}, err
		}
		return tool, innerCall, nil
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
