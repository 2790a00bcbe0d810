package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// maxToolName is the longest tool name providers accept.
const maxToolName = 64

// ToolName is the name the model sees for tool of server, as Claude Code
// names it: mcp__<server>__<tool>, with every character other than
// letters, digits, _ and - replaced by _ (the pattern every provider
// accepts, ^[a-zA-Z0-9_-]{1,64}$), and shortened with a hash suffix past
// 64 characters. Server "sequential-thinking" keeps its hyphen, so agent
// tool lists, settings rules and hook matchers written for Claude Code
// name cairn's tools.
func ToolName(server, tool string) string {
	return shorten("mcp__"+sanitize(server)+"__"+sanitize(tool), server, tool)
}

// LegacyToolName is the name cairn gave tool of server before it kept
// hyphens (every - replaced by _ too). Calls and rules saved under it
// (an older session's history, an approval rule) still find the tool.
func LegacyToolName(server, tool string) string {
	return shorten("mcp__"+legacy(sanitize(server))+"__"+legacy(sanitize(tool)), server, tool)
}

func shorten(name, server, tool string) string {
	if len(name) <= maxToolName {
		return name
	}
	return name[:maxToolName-9] + "_" + shortHash(server+"\x00"+tool)
}

// sanitize is Claude Code's normalisation of an MCP name.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// legacy turns a name of today's form into the older one.
func legacy(s string) string { return strings.ReplaceAll(s, "-", "_") }

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// Tool is one server tool as a core tool. It finds the server's live
// connection when called (waiting for a server still starting), so it can
// be handed to a session before the server is up.
type Tool struct {
	m      *Manager
	server Server
	info   ToolInfo
	name   string
}

// NewTool returns the core tool for info of server s, run through m.
func NewTool(m *Manager, s Server, info ToolInfo) *Tool {
	return &Tool{m: m, server: s, info: info, name: ToolName(s.Name, info.Name)}
}

// Tools returns the core tools of servers' tool lists, with names made
// unique: tools whose names collide after sanitising all get a hash
// suffix.
func Tools(m *Manager, lists map[string][]ToolInfo, servers []Server) []core.Tool {
	var out []*Tool
	count := map[string]int{}
	for _, s := range servers {
		for _, info := range lists[s.Name] {
			t := NewTool(m, s, info)
			count[t.name]++
			out = append(out, t)
		}
	}
	tools := make([]core.Tool, len(out))
	for i, t := range out {
		if count[t.name] > 1 {
			t.name = ToolName(t.server.Name, t.info.Name)
			t.name = t.name[:min(len(t.name), maxToolName-9)] + "_" + shortHash(t.server.Name+"\x00"+t.info.Name)
		}
		tools[i] = t
	}
	return tools
}

// LiveTools returns the tools of every ready server.
func (m *Manager) LiveTools() []core.Tool {
	lists := map[string][]ToolInfo{}
	var servers []Server
	for _, st := range m.Statuses() {
		if st.State == Ready {
			lists[st.Server.Name] = st.Tools
			servers = append(servers, st.Server)
		}
	}
	return Tools(m, lists, servers)
}

// Server is the server the tool belongs to.
func (t *Tool) Server() Server { return t.server }

// Info is the tool as the server describes it.
func (t *Tool) Info() ToolInfo { return t.info }

// Spec describes the tool to the model, with the server's schema.
func (t *Tool) Spec() core.ToolSpec {
	params := t.info.InputSchema
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	desc := t.info.Description
	if desc == "" {
		desc = t.info.Title
	}
	return core.ToolSpec{Name: t.name, Description: desc, Parameters: params}
}

// Category is mcp: the gate asks before every call unless a rule allows it.
func (t *Tool) Category() core.ApprovalCategory { return core.CategoryMCP }

// Kind is read for tools the server marks read-only, other otherwise.
func (t *Tool) Kind() core.ToolKind {
	if t.info.ReadOnly {
		return core.KindRead
	}
	return core.KindOther
}

// HintText says what the server claims about the tool, for the approval
// question: "The server marks this tool read-only." or "... destructive.",
// or "" when it says nothing.
func (t *Tool) HintText() string {
	switch {
	case t.info.ReadOnly:
		return fmt.Sprintf("MCP server %q marks this tool read-only (a claim by the server).", t.server.Name)
	case t.info.Destructive != nil && *t.info.Destructive:
		return fmt.Sprintf("MCP server %q marks this tool destructive: it may delete or overwrite data.", t.server.Name)
	case t.info.Destructive != nil:
		return fmt.Sprintf("MCP server %q marks this tool as changing things, but not destructively.", t.server.Name)
	}
	return ""
}

// Execute calls the tool on its server. The call has the server's timeout,
// which each progress notification restarts; progress is reported through
// update. Cancelling ctx cancels the request on the server.
func (t *Tool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	args, err := core.CheckArguments(t.Spec(), call.Arguments)
	if err != nil {
		return core.ErrorResult(err.Error()), nil
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timeout := t.server.Timeout
	timer := time.AfterFunc(timeout, func() { cancel(errTimeout) })
	defer timer.Stop()

	conn, err := t.m.Conn(callCtx, t.server.Name)
	if err != nil {
		if ctx.Err() != nil {
			return core.ErrorResult("Tool execution was aborted"), nil
		}
		return core.ErrorResult(fmt.Sprintf("%s: %s", t.name, modelError(err))), nil
	}
	progress := t.progress(timer, timeout, update)
	res, err := conn.CallTool(callCtx, t.info.Name, args, progress.report)
	progress.stop()
	switch {
	case ctx.Err() != nil:
		return core.ErrorResult("Tool execution was aborted; the MCP server was asked to cancel the request"), nil
	case errors.Is(context.Cause(callCtx), errTimeout):
		return core.ErrorResult(fmt.Sprintf("MCP server %q did not answer %s within %s; the request was cancelled", t.server.Name, t.info.Name, timeout)), nil
	case errors.Is(err, ErrConnectionClosed):
		return core.ErrorResult(fmt.Sprintf("MCP server %q stopped during the call to %s (it is being restarted): %s", t.server.Name, t.info.Name, modelError(err))), nil
	case err != nil:
		return core.ErrorResult(fmt.Sprintf("MCP server %q: %s failed: %s", t.server.Name, t.info.Name, modelError(err))), nil
	}
	out := core.ToolResult{Content: capText(res.Content, ""), IsError: res.IsError}
	if len(out.Content) == 0 {
		out.Content = []core.Content{core.TextBlock("(the tool returned nothing)")}
	}
	return out, nil
}

var errTimeout = errors.New("mcp call timed out")

// progressSink forwards progress to update until stopped: the SDK may
// deliver a late notification after the call returned, and update must
// not be called then.
type progressSink struct {
	mu      sync.Mutex
	done    bool
	update  func(core.ToolUpdate)
	timer   *time.Timer
	timeout time.Duration
}

func (t *Tool) progress(timer *time.Timer, timeout time.Duration, update func(core.ToolUpdate)) *progressSink {
	return &progressSink{update: update, timer: timer, timeout: timeout}
}

func (p *progressSink) report(pr Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.timer.Reset(p.timeout)
	if p.update != nil {
		p.update(core.ToolUpdate{Content: []core.Content{core.TextBlock(ProgressText(pr))}})
	}
}

func (p *progressSink) stop() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// ProgressText shows a progress notification: "3/10 (30%) message".
func ProgressText(p Progress) string {
	s := fmt.Sprintf("progress %g", p.Progress)
	if p.Total > 0 {
		s = fmt.Sprintf("progress %g/%g (%.0f%%)", p.Progress, p.Total, 100*p.Progress/p.Total)
	}
	if p.Message != "" {
		s += ": " + p.Message
	}
	return s
}
