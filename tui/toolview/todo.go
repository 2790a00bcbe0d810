package toolview

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/tools"
)

// todoTitle names a todo_write call by what it is, the model's task list,
// with how much of it is done.
func todoTitle(v *view) (string, string) {
	todos := v.todos()
	if todos == nil {
		return "tasks", ""
	}
	done := 0
	for _, t := range todos {
		if t.Status == tools.TodoCompleted {
			done++
		}
	}
	return "tasks", fmt.Sprintf("%d/%d done", done, len(todos))
}

// todoBody shows the list itself, one row an item (✓ done, ▸ in progress
// by its active form, ○ to do), in place of the call's JSON and the
// result the model reads.
func todoBody(v *view, b *box) {
	todos := v.todos()
	limit := b.limit(headLimit)
	for i, t := range todos {
		if i == limit {
			b.elided(len(todos)-limit, false)
			break
		}
		switch t.Status {
		case tools.TodoCompleted:
			b.wrap("✓ "+escape.Visible(t.Content), v.p.Muted, 2)
		case tools.TodoInProgress:
			text := t.ActiveForm
			if text == "" {
				text = t.Content
			}
			b.wrap("▸ "+escape.Visible(text), v.p.Title, 2)
		default:
			b.wrap("○ "+escape.Visible(t.Content), v.p.Output, 2)
		}
	}
}

// todos reads the list from the call's arguments (as far as they have
// streamed), or nil.
func (v *view) todos() []tools.Todo {
	raw, ok := v.args["todos"]
	if !ok {
		return nil
	}
	var todos []tools.Todo
	if json.Unmarshal(raw, &todos) != nil {
		// Still streaming: read the items complete so far.
		var partial []json.RawMessage
		if json.Unmarshal(completeJSON(raw), &partial) != nil {
			return nil
		}
		for _, p := range partial {
			var t tools.Todo
			if json.Unmarshal(p, &t) == nil {
				todos = append(todos, t)
			}
		}
	}
	if todos == nil {
		todos = []tools.Todo{}
	}
	return todos
}
