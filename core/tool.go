package core

import (
	"context"
	"encoding/json"
)

// ApprovalCategory says how much trust running a tool needs: info tools only
// look, edit tools change files, exec tools run programs, mcp tools are
// provided by an MCP server, network tools reach the network.
type ApprovalCategory string

// The approval categories.
const (
	CategoryInfo ApprovalCategory = "info"
	CategoryEdit ApprovalCategory = "edit"
	CategoryExec ApprovalCategory = "exec"
	CategoryMCP  ApprovalCategory = "mcp"
	// CategoryNetwork tools reach the network (web_fetch, web_search):
	// judged by the host they go to.
	CategoryNetwork ApprovalCategory = "network"
)

// ToolKind is the Agent Client Protocol's kind of a tool, which editors use
// to choose an icon and a preview.
type ToolKind string

// The tool kinds of ACP.
const (
	KindRead    ToolKind = "read"
	KindEdit    ToolKind = "edit"
	KindDelete  ToolKind = "delete"
	KindMove    ToolKind = "move"
	KindSearch  ToolKind = "search"
	KindExecute ToolKind = "execute"
	KindThink   ToolKind = "think"
	KindFetch   ToolKind = "fetch"
	KindOther   ToolKind = "other"
)

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// ToolResult is what a tool returns: content for the model, details for
// front ends (diffs, truncation notes), and whether it failed.
type ToolResult struct {
	Content []Content
	Details json.RawMessage
	IsError bool
	// Terminate asks the agent not to ask the model again after this
	// call (pi's terminate hint): the run ends after the tool calls of the
	// answer when every one of them asks so. It is not kept in the
	// session.
	Terminate bool
}

// ToolUpdate is partial output a tool reports while it runs (for example
// the tail of a running command), shown to people but not sent to the model
// until the tool finishes.
type ToolUpdate struct {
	Content []Content
	Details json.RawMessage
	// Subagent, when set, is the progress of the subagent the call runs
	// (the task tool); Details then hold the same progress as JSON.
	Subagent *SubagentProgress
}

// Tool is something the model can call. Tools are plain values: a spec for
// the model, an approval category and kind, and Execute.
type Tool interface {
	// Spec describes the tool to the model.
	Spec() ToolSpec
	// Category is the trust running it needs.
	Category() ApprovalCategory
	// Kind is the ACP kind of the tool.
	Kind() ToolKind
	// Execute runs one call. It returns a result with IsError set for
	// failures the model should see (a missing file, a non-zero exit), and
	// an error only when the tool could not run at all. It stops promptly
	// when ctx is cancelled. update may be called any number of times
	// before Execute returns, never after.
	Execute(ctx context.Context, call ToolCall, update func(ToolUpdate)) (ToolResult, error)
}

// TextResult returns a successful result with one text block.
func TextResult(text string) ToolResult {
	return ToolResult{Content: []Content{TextBlock(text)}}
}

// ErrorResult returns a failed result with one text block.
func ErrorResult(text string) ToolResult {
	return ToolResult{Content: []Content{TextBlock(text)}, IsError: true}
}
