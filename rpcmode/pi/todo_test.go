package pi

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestTodoWriteIsAnOrdinaryTool: a host sees the model's checklist as the
// todo_write call's events, the whole list in the result's details, and
// get_messages keeps it for a resumed session.
func TestTodoWriteIsAnOrdinaryTool(t *testing.T) {
	args, _ := json.Marshal(map[string]any{"todos": []any{
		map[string]any{"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"}}})
	fp := faux.New(faux.Options{},
		faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "t1", Name: "todo_write", Arguments: args}}},
		faux.Response{Text: "on it"})
	r := newRig(t, rigConfig{faux: fp, todo: true})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "fix it"})
	r.response("p")
	r.wait(map[string]any{"type": "tool_execution_start", "toolName": "todo_write", "args.todos.0.status": "in_progress"})
	r.wait(map[string]any{"type": "tool_execution_end", "toolName": "todo_write", "isError": false,
		"result.details.todos.0.activeForm": "Fixing the bug"})
	r.wait(map[string]any{"type": "agent_settled"})
}
