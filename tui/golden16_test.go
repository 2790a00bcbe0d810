package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cairn-dev/cairn/core"
)

// tui16Screens are the states the full-day review asked to see at a small
// and a large terminal: an approval, calls run in parallel, a table.
func tui16Screens() []screenState {
	return []screenState{
		{name: "approval", msgs: approvalScreen, history: func() []core.Message { return []core.Message{approvalAnswer()} }},
		{name: "parallel-tools", msgs: parallelScreen},
		{name: "table", msgs: tableScreen},
	}
}

func parallelScreen(*rig) []tea.Msg {
	a := answer(text("Checking three things at once."),
		call("p1", "bash", map[string]any{"command": "go vet ./..."}),
		call("p2", "read", map[string]any{"path": "go.mod"}),
		call("p3", "bash", map[string]any{"command": "go test ./..."}))
	a.StopReason = core.StopToolUse
	start := func(i int, name string) core.ToolExecutionStart {
		return core.ToolExecutionStart{ToolCallID: a.Content[i].ID, ToolName: name, Args: a.Content[i].Arguments}
	}
	end := func(i int, name, out string) core.ToolExecutionEnd {
		return core.ToolExecutionEnd{ToolCallID: a.Content[i].ID, ToolName: name, Result: core.ToolResult{Content: []core.Content{text(out)}}}
	}
	return []tea.Msg{
		eventsMsg{core.AgentStart{}, core.MessageStart{Message: &core.UserMessage{Content: []core.Content{text("Vet, read go.mod and test")}}}},
		eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: a}, start(1, "bash"), start(2, "read"), start(3, "bash")},
		eventsMsg{end(2, "read", "module example.com/demo\n\ngo 1.25\n"), end(1, "bash", "")},
	}
}

func tableScreen(*rig) []tea.Msg {
	a := answer(text("The files compare like this:\n\n| File | Lines | Role |\n|---|---:|---|\n| parser.go | 412 | the **parser** |\n| lexer.go | 96 | `Token` values |\n\nThe parser is the larger one."))
	a.Provider = "test"
	return []tea.Msg{
		eventsMsg{core.AgentStart{}, core.MessageStart{Message: &core.UserMessage{Content: []core.Content{text("Compare the files")}}}},
		eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: a}, core.AgentEnd{}, core.Settled{}},
	}
}

// TestScreensTUI16 draws those states at 80×24 and 200×50 and compares
// each frame with its golden file (-update accepts a deliberate change).
func TestScreensTUI16(t *testing.T) {
	for _, st := range tui16Screens() {
		for _, size := range [][2]int{{80, 24}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", st.name, size[0], size[1]), func(t *testing.T) {
				o := rigOptions{models: testModels()}
				if st.history != nil {
					o.history = st.history()
				}
				r := newRig(t, o)
				frame := r.frame(size[0], size[1], st.wait, st.msgs(r)...)
				checkWidth(t, frame, size[0])
				golden.RequireEqual(t, frame)
			})
		}
	}
}
