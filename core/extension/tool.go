package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Tool is a tool an extension registered. Its calls go to the
// extension's process; it is approved as a tool of another program
// (core.CategoryMCP), by its name.
type Tool struct {
	e      *extension
	def    ToolDef
	active bool
}

var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`) })

// newTool checks d.
func (e *extension) newTool(d ToolDef) (*Tool, error) {
	if !toolName().MatchString(d.Name) {
		return nil, fmt.Errorf("tool name %q must be 1 to 64 letters, digits, _ or -, not starting with a digit", jsonrpc2.Echo(d.Name))
	}
	if d.Description == "" {
		return nil, fmt.Errorf("tool %q has no description", d.Name)
	}
	var schema map[string]json.RawMessage
	if json.Unmarshal(d.Parameters, &schema) != nil || string(schema["type"]) != `"object"` {
		return nil, fmt.Errorf("tool %q: parameters must be a JSON Schema of type object", d.Name)
	}
	return &Tool{e: e, def: d, active: d.Active == nil || *d.Active}, nil
}

// Spec implements core.Tool.
func (t *Tool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: t.def.Name, Description: t.def.Description, Parameters: t.def.Parameters}
}

// Category implements core.Tool: a tool of another program.
func (t *Tool) Category() core.ApprovalCategory { return core.CategoryMCP }

// Kind implements core.Tool.
func (t *Tool) Kind() core.ToolKind { return core.KindOther }

// Extension names the extension the tool belongs to.
func (t *Tool) Extension() string { return t.e.cfg.Name }

// Execute implements core.Tool: the extension runs the call; its
// tool_update notifications are the call's updates. An error response,
// an unreadable result or the extension's end fail the call with why
// (and the last lines of its stderr).
func (t *Tool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	e := t.e
	e.mu.Lock()
	e.updates[call.ID] = update
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.updates, call.ID)
		e.mu.Unlock()
	}()
	params := call.Arguments
	if len(params) == 0 {
		params = json.RawMessage(`{}`)
	}
	raw, err := e.callOp(ctx, MethodExecuteTool, ExecuteToolParams{ToolCallID: call.ID, Name: t.def.Name, Params: params})
	if err != nil {
		var rpcErr *jsonrpc2.Error
		switch {
		case ctx.Err() != nil:
			return core.ErrorResult("Tool execution was aborted"), nil
		case errors.As(err, &rpcErr):
			return core.ErrorResult(rpcErr.Message), nil
		}
		return core.ErrorResult(fmt.Sprintf("extension %q failed while running %s: %v", e.cfg.Name, t.def.Name, e.why(err))), nil
	}
	var r ToolResult
	if err := strictJSON(raw, &r); err != nil {
		return core.ErrorResult(fmt.Sprintf("extension %q returned a result for %s that cannot be read: %v", e.cfg.Name, t.def.Name, err)), nil
	}
	if err := checkContent(r.Content); err != nil {
		return core.ErrorResult(fmt.Sprintf("extension %q returned a result for %s that cannot be used: %v", e.cfg.Name, t.def.Name, err)), nil
	}
	return core.ToolResult{Content: r.Content, Details: r.Details, IsError: r.IsError, Terminate: r.Terminate}, nil
}

// checkContent allows the blocks a tool result may hold: text and images.
func checkContent(blocks []core.Content) error {
	for _, b := range blocks {
		if b.Type != core.ContentText && b.Type != core.ContentImage {
			return fmt.Errorf("a tool result holds text and image blocks, not %q", b.Type)
		}
	}
	return nil
}

var commandName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:-]{0,63}$`) })

func checkCommand(c CommandDef) error {
	if !commandName().MatchString(c.Name) {
		return fmt.Errorf("command name %q must be 1 to 64 letters, digits, _, : or -, starting with a letter", jsonrpc2.Echo(c.Name))
	}
	return nil
}
