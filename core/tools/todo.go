package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// TodoWrite is the todo_write tool, in Claude Code's shape: the model
// keeps a checklist of its work, sending the whole list each time, and
// every front end shows it (the TUI above the editor, ACP as its plan,
// rpc as the call's events). It changes nothing, so it needs no approval.
type TodoWrite struct{}

// NewTodoWrite returns the todo_write tool.
func NewTodoWrite() *TodoWrite { return &TodoWrite{} }

// TodoWriteName is the tool's name.
const TodoWriteName = "todo_write"

// The states of a todo.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// Todo is one item of the list.
type Todo struct {
	// Content says what is to be done, in the imperative ("Run the tests").
	Content string `json:"content"`
	// Status is pending, in_progress or completed.
	Status string `json:"status"`
	// ActiveForm says it while it is being done ("Running the tests").
	ActiveForm string `json:"activeForm"`
}

// TodoDetails are the details of a todo_write result: the whole list as
// it now stands.
type TodoDetails struct {
	Todos []Todo `json:"todos"`
}

// Bounds on a list: it is a short checklist, shown whole.
const (
	maxTodos       = 100
	maxTodoRunes   = 500
	todoWriteUsage = "Keep a checklist of the steps of a multi-step task, shown to the user while you work. " +
		"Send the whole list each time, every item with its status (pending, in_progress, completed). " +
		"Mark one item in_progress before you start it and completed as soon as it is done; " +
		"add items you discover and remove ones that no longer apply. Skip it for simple one-step tasks."
)

var todoWriteSpec = core.ToolSpec{
	Name:        TodoWriteName,
	Description: todoWriteUsage,
	Parameters: json.RawMessage(`{"type":"object","required":["todos"],"properties":{` +
		`"todos":{"type":"array","description":"The whole updated list, in order","items":{"type":"object",` +
		`"required":["content","status","activeForm"],"properties":{` +
		`"content":{"type":"string","description":"What to do, imperative: \"Run the tests\""},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"]},` +
		`"activeForm":{"type":"string","description":"The same while doing it: \"Running the tests\""}}}}}}`),
}

// Spec describes the tool to the model.
func (*TodoWrite) Spec() core.ToolSpec { return todoWriteSpec }

// Category is info: a checklist changes nothing.
func (*TodoWrite) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is think.
func (*TodoWrite) Kind() core.ToolKind { return core.KindThink }

type todoArgs struct {
	Todos *[]struct {
		Content    *string `json:"content"`
		Status     string  `json:"status"`
		ActiveForm string  `json:"activeForm"`
	} `json:"todos"`
}

// ParseTodos checks a todo_write call's arguments and returns the list.
// An item without an activeForm is shown by its content.
func ParseTodos(raw json.RawMessage) ([]Todo, error) {
	var a todoArgs
	if err := decodeArgs(todoWriteSpec, raw, &a); err != nil {
		return nil, err
	}
	if a.Todos == nil {
		return nil, &argError{TodoWriteName, "todos is required"}
	}
	if len(*a.Todos) > maxTodos {
		return nil, &argError{TodoWriteName, fmt.Sprintf("a list has at most %d items", maxTodos)}
	}
	todos := make([]Todo, 0, len(*a.Todos))
	for i, t := range *a.Todos {
		if t.Content == nil || strings.TrimSpace(*t.Content) == "" {
			return nil, &argError{TodoWriteName, fmt.Sprintf("todos[%d].content is required", i)}
		}
		switch t.Status {
		case TodoPending, TodoInProgress, TodoCompleted:
		default:
			return nil, &argError{TodoWriteName, fmt.Sprintf("todos[%d].status must be pending, in_progress or completed, not %q", i, t.Status)}
		}
		active := t.ActiveForm
		if strings.TrimSpace(active) == "" {
			active = *t.Content
		}
		if len([]rune(*t.Content)) > maxTodoRunes || len([]rune(active)) > maxTodoRunes {
			return nil, &argError{TodoWriteName, fmt.Sprintf("todos[%d] is longer than %d characters: keep items short", i, maxTodoRunes)}
		}
		todos = append(todos, Todo{Content: *t.Content, Status: t.Status, ActiveForm: active})
	}
	return todos, nil
}

// Execute records the list: the result says how far along it is and
// carries the whole list in its details.
func (*TodoWrite) Execute(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	todos, err := ParseTodos(call.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	done := 0
	for _, t := range todos {
		if t.Status == TodoCompleted {
			done++
		}
	}
	return withDetails(fmt.Sprintf("Todo list updated: %d of %d completed. Keep it current as you work.", done, len(todos)),
		TodoDetails{Todos: todos}), nil
}

// TodosOf returns the list a todo_write result set: ok is false for
// another tool's result, or a failed call, which leave the list as it was.
func TodosOf(tool string, isError bool, details json.RawMessage) ([]Todo, bool) {
	if tool != TodoWriteName || isError {
		return nil, false
	}
	var d TodoDetails
	if json.Unmarshal(details, &d) != nil || d.Todos == nil {
		return nil, false
	}
	return d.Todos, true
}

// LastTodos returns the list as the last successful todo_write call in
// messages left it (a resumed session's list), or nil.
func LastTodos(messages []core.Message) []Todo {
	for i := len(messages) - 1; i >= 0; i-- {
		r, ok := messages[i].(*core.ToolResultMessage)
		if !ok {
			continue
		}
		if todos, ok := TodosOf(r.ToolName, r.IsError, r.Details); ok {
			return todos
		}
	}
	return nil
}
