package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// todoList is the model's checklist (its todo_write calls) as the last
// successful call left it. It is drawn above the editor while the run
// that wrote it goes on; once that run ends it is put away (stale), so a
// later run (an extension command, a question) does not show an old list.
// /todos shows it again.
type todoList struct {
	todos []tools.Todo
	stale bool
}

// endRun puts the list away: the run that wrote it is over.
func (l *todoList) endRun() { l.stale = true }

// maxTodoLines bounds the list's rows above the editor: past it, the rows
// around the item in progress are shown and the rest counted.
const maxTodoLines = 8

// observe takes the list from a finished todo_write call; any other
// result, or a failed call, leaves it as it was.
func (l *todoList) observe(tool string, r core.ToolResult) {
	if todos, ok := tools.TodosOf(tool, r.IsError, r.Details); ok {
		l.todos, l.stale = todos, false
	}
}

// restore sets the list from a conversation: the one its last todo_write
// call left (a resumed or switched session), or none.
func (l *todoList) restore(msgs []core.Message) {
	l.todos, l.stale = tools.LastTodos(msgs), true
}

// view draws the list w columns wide while its run goes on (see all), or
// "" when there is none or it was put away.
func (l *todoList) view(st *styles, w int) string {
	if l.stale {
		return ""
	}
	return l.all(st, w)
}

// all draws the list w columns wide: a heading with the count done, then
// one row per item (✓ done, ▸ in progress by its active form, ○ to do).
// It is "" when there is no list.
func (l *todoList) all(st *styles, w int) string {
	if len(l.todos) == 0 {
		return ""
	}
	done, current := 0, -1
	for i, t := range l.todos {
		if t.Status == tools.TodoCompleted {
			done++
		}
		if t.Status == tools.TodoInProgress && current < 0 {
			current = i
		}
	}
	from, to := window(len(l.todos), current, maxTodoLines)
	lines := []string{st.muted.Render(fmt.Sprintf(" Todo %d/%d", done, len(l.todos)))}
	if from > 0 {
		lines = append(lines, st.dim.Render(fmt.Sprintf("   … %d above", from)))
	}
	for _, t := range l.todos[from:to] {
		switch t.Status {
		case tools.TodoCompleted:
			lines = append(lines, st.dim.Render(" ✓ "+oneLine(t.Content, w-3)))
		case tools.TodoInProgress:
			lines = append(lines, st.accent.Render(" ▸ "+oneLine(t.ActiveForm, w-3)))
		default:
			lines = append(lines, " ○ "+oneLine(t.Content, w-3))
		}
	}
	if to < len(l.todos) {
		lines = append(lines, st.dim.Render(fmt.Sprintf("   … %d more", len(l.todos)-to)))
	}
	return strings.Join(lines, "\n")
}

// window picks at most n of count rows to show, keeping row at (when not
// -1) in view with a row of the list before it where there is one.
func window(count, at, n int) (from, to int) {
	if count <= n {
		return 0, count
	}
	if at > 0 {
		from = min(at-1, count-n)
	}
	return from, from + n
}

// cmdTodos is /todos: the model's latest task list, put in the
// transcript, also after its run ended.
func (m *Model) cmdTodos(string) tea.Cmd {
	t := m.todos.all(m.st, max(m.width-4, 20))
	if t == "" {
		m.say(core.NotifyInfo, "There is no task list in this session: the model writes one with todo_write.")
		return nil
	}
	m.tr.add(&textItem{text: strings.TrimLeft(t, " ")})
	return nil
}
