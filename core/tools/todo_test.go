package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestTodoWriteResultCarriesTheList(t *testing.T) {
	res := run(t, NewTodoWrite(), map[string]any{"todos": []any{
		map[string]any{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
		map[string]any{"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
		map[string]any{"content": "Run the tests", "status": "pending"},
	}})
	if res.IsError || !strings.HasPrefix(text(res), "Todo list updated: 1 of 3 completed.") {
		t.Fatalf("result = %+v", res)
	}
	d := details[TodoDetails](t, res)
	want := []Todo{{"Read the code", "completed", "Reading the code"}, {"Fix the bug", "in_progress", "Fixing the bug"},
		{"Run the tests", "pending", "Run the tests"}}
	if len(d.Todos) != 3 || d.Todos[0] != want[0] || d.Todos[1] != want[1] || d.Todos[2] != want[2] {
		t.Errorf("todos = %+v", d.Todos)
	}
	if NewTodoWrite().Category() != core.CategoryInfo {
		t.Error("a checklist must need no approval")
	}
	got, ok := TodosOf(TodoWriteName, false, res.Details)
	if !ok || len(got) != 3 {
		t.Errorf("TodosOf = %v %v", got, ok)
	}
	if _, ok := TodosOf(TodoWriteName, true, res.Details); ok {
		t.Error("a failed call set a list")
	}
	if _, ok := TodosOf("read", false, res.Details); ok {
		t.Error("another tool's result set a list")
	}
}

func TestTodoWriteRejectsBadLists(t *testing.T) {
	for args, want := range map[string]string{
		`{}`:                               "todos is required",
		`{"todos":[{"status":"pending"}]}`: "todos[0].content is required",
		`{"todos":[{"content":" ","status":"pending"}]}`:                                "todos[0].content is required",
		`{"todos":[{"content":"a","status":"doing","activeForm":"a"}]}`:                 `todos[0].status must be pending, in_progress or completed, not "doing"`,
		`{"todos":[{"content":"a","status":"pending","priority":"high"}]}`:              "priority",
		`{"todos":"not a list"}`:                                                        "Invalid arguments for todo_write",
		`{"todos":[{"content":"` + strings.Repeat("x", 501) + `","status":"pending"}]}`: "longer than 500",
	} {
		res, err := NewTodoWrite().Execute(t.Context(), core.ToolCall{Arguments: json.RawMessage(args)}, nil)
		if err != nil || !res.IsError || !strings.Contains(text(res), want) {
			t.Errorf("%.60s: %+v %v, want an error containing %q", args, res, err, want)
		}
	}
	many := `{"todos":[` + strings.Repeat(`{"content":"a","status":"pending"},`, maxTodos) + `{"content":"a","status":"pending"}]}`
	if _, err := ParseTodos(json.RawMessage(many)); err == nil || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("a list of %d items: %v", maxTodos+1, err)
	}
}

// TestLastTodos: a resumed session's list is the one its last successful
// todo_write call left.
func TestLastTodos(t *testing.T) {
	first := mustJSON(TodoDetails{Todos: []Todo{{"a", "pending", "a"}}})
	second := mustJSON(TodoDetails{Todos: []Todo{{"a", "completed", "a"}, {"b", "pending", "b"}}})
	msgs := []core.Message{
		&core.ToolResultMessage{ToolName: TodoWriteName, Details: first},
		&core.UserMessage{},
		&core.ToolResultMessage{ToolName: TodoWriteName, Details: second},
		&core.ToolResultMessage{ToolName: TodoWriteName, IsError: true, Details: json.RawMessage(`{}`)},
		&core.ToolResultMessage{ToolName: "read", Details: json.RawMessage(`{}`)},
	}
	got := LastTodos(msgs)
	if len(got) != 2 || got[0].Status != "completed" {
		t.Errorf("LastTodos = %+v", got)
	}
	if LastTodos(msgs[4:]) != nil {
		t.Error("a list without any todo_write call")
	}
}

func FuzzParseTodos(f *testing.F) {
	f.Add(`{"todos":[{"content":"a","status":"pending","activeForm":"b"}]}`)
	f.Add(`{"todos":[]}`)
	f.Add(`{"todos":[{"content":"","status":"x"}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		todos, err := ParseTodos(json.RawMessage(raw))
		if err != nil {
			return
		}
		if len(todos) > maxTodos {
			t.Fatalf("%d items accepted", len(todos))
		}
		for _, td := range todos {
			if strings.TrimSpace(td.Content) == "" || strings.TrimSpace(td.ActiveForm) == "" {
				t.Fatalf("empty item accepted: %q", raw)
			}
			switch td.Status {
			case TodoPending, TodoInProgress, TodoCompleted:
			default:
				t.Fatalf("status %q accepted", td.Status)
			}
		}
	})
}
