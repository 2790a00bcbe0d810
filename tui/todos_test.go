package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// todoResult is a successful todo_write result with todos.
func todoResult(t *testing.T, todos ...tools.Todo) core.ToolResult {
	t.Helper()
	res, err := tools.NewTodoWrite().Execute(t.Context(), core.ToolCall{Arguments: mustMarshal(t, map[string]any{"todos": todos})}, nil)
	if err != nil || res.IsError {
		t.Fatalf("todo_write: %+v %v", res, err)
	}
	return res
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var threeTodos = []tools.Todo{
	{Content: "Read the code", Status: "completed", ActiveForm: "Reading the code"},
	{Content: "Fix the bug", Status: "in_progress", ActiveForm: "Fixing the bug"},
	{Content: "Run the tests", Status: "pending", ActiveForm: "Running the tests"},
}

// TestTodoListAboveTheEditorWhileWorking: the model's checklist is drawn
// above the editor while a run is going (in progress by its active form),
// a failed call leaves it as it was, and it goes when the run ends.
func TestTodoListAboveTheEditorWhileWorking(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(eventsMsg{core.AgentStart{},
		core.ToolExecutionStart{ToolCallID: "c1", ToolName: tools.TodoWriteName},
		core.ToolExecutionEnd{ToolCallID: "c1", ToolName: tools.TodoWriteName, Result: todoResult(t, threeTodos...)},
		core.ToolExecutionStart{ToolCallID: "c2", ToolName: tools.TodoWriteName},
		core.ToolExecutionEnd{ToolCallID: "c2", ToolName: tools.TodoWriteName, Result: core.ToolResult{IsError: true, Details: json.RawMessage(`{}`)}},
	})
	bottom := ansi.Strip(r.m.bottomView())
	want := " Todo 1/3\n ✓ Read the code\n ▸ Fixing the bug\n ○ Run the tests\n"
	if !strings.Contains(bottom, want) {
		t.Errorf("bottom while working:\n%s\nwant it to hold:\n%s", bottom, want)
	}
	if strings.Index(bottom, "Todo 1/3") > strings.Index(bottom, "Working") {
		t.Errorf("the list is not above the working line:\n%s", bottom)
	}
	r.send(eventsMsg{core.AgentEnd{}, core.Settled{}})
	if b := ansi.Strip(r.m.bottomView()); strings.Contains(b, "Todo 1/3") {
		t.Errorf("the list outlived the run:\n%s", b)
	}
}

// TestTodoListRestoredOnResume: a resumed session's list is the one its
// last todo_write call left; its run is over, so the next run does not
// show it above the editor, and /todos does.
func TestTodoListRestoredOnResume(t *testing.T) {
	res := todoResult(t, threeTodos...)
	history := []core.Message{
		&core.UserMessage{Content: []core.Content{text("fix it")}},
		answer(call("c1", tools.TodoWriteName, map[string]any{"todos": threeTodos})),
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: tools.TodoWriteName, Content: res.Content, Details: res.Details},
	}
	r := newRig(t, rigOptions{history: history})
	r.send(eventsMsg{core.AgentStart{}})
	if b := ansi.Strip(r.m.bottomView()); strings.Contains(b, "Fixing the bug") {
		t.Errorf("an earlier run's list shown in a new run:\n%s", b)
	}
	r.m.cmdTodos("")
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, "Todo 1/3") || !strings.Contains(v, "▸ Fixing the bug") {
		t.Errorf("/todos did not show the list:\n%s", v)
	}
}

// TestTodoListPutAwayWhenItsRunEnds: a later run (an extension command,
// a question) does not show the list an earlier run left, until the model
// writes a new one; /todos still shows the old one.
func TestTodoListPutAwayWhenItsRunEnds(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(eventsMsg{core.AgentStart{},
		core.ToolExecutionStart{ToolCallID: "c1", ToolName: tools.TodoWriteName},
		core.ToolExecutionEnd{ToolCallID: "c1", ToolName: tools.TodoWriteName, Result: todoResult(t, threeTodos...)},
		core.AgentEnd{}, core.Settled{}})
	r.send(eventsMsg{core.AgentStart{}})
	if b := ansi.Strip(r.m.bottomView()); strings.Contains(b, "Todo 1/3") {
		t.Errorf("the finished run's list shows in the next run:\n%s", b)
	}
	r.send(eventsMsg{core.ToolExecutionStart{ToolCallID: "c2", ToolName: tools.TodoWriteName},
		core.ToolExecutionEnd{ToolCallID: "c2", ToolName: tools.TodoWriteName, Result: todoResult(t, threeTodos...)}})
	if b := ansi.Strip(r.m.bottomView()); !strings.Contains(b, "Todo 1/3") {
		t.Errorf("the new run's own list is not shown:\n%s", b)
	}
}

func TestTodoWindowKeepsTheCurrentItem(t *testing.T) {
	for _, c := range []struct{ count, at, from, to int }{
		{5, 2, 0, 5}, {20, -1, 0, 8}, {20, 0, 0, 8}, {20, 10, 9, 17}, {20, 19, 12, 20},
	} {
		if from, to := window(c.count, c.at, maxTodoLines); from != c.from || to != c.to {
			t.Errorf("window(%d, %d) = %d, %d; want %d, %d", c.count, c.at, from, to, c.from, c.to)
		}
	}
}
