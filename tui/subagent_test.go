package tui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/subagent"
)

// A running subagent shows as a block under its task call with its current
// step, tokens and time; expanded, the steps it took; done, its answer;
// and the footer's totals count its tokens.
func TestSubagentBlockUnderItsCall(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	a := answer(call("t1", "task", map[string]any{"description": "find the parser", "prompt": "Find it.", "subagent_type": "explore"}))
	a.StopReason = core.StopToolUse
	update := func(p core.SubagentProgress) core.ToolExecutionUpdate {
		d, _ := json.Marshal(subagent.Details{SubagentID: p.ID, Agent: p.Agent, Task: p.Task, Status: p.Status.String(),
			Step: p.Step, Turns: p.Turns, Usage: p.Usage, ElapsedMs: p.Elapsed.Milliseconds()})
		return core.ToolExecutionUpdate{ToolCallID: "t1", ToolName: "task", Args: a.Content[0].Arguments,
			Partial: core.ToolUpdate{Content: []core.Content{text("explore: find the parser")}, Details: d, Subagent: &p}}
	}
	usage := core.Usage{Input: 1200, Output: 34, TotalTokens: 1234}
	lsStart := core.ToolExecutionStart{ToolCallID: "c1", ToolName: "grep", Args: json.RawMessage(`{"pattern":"Parse"}`)}
	childAnswer := &core.AssistantMessage{Content: []core.Content{text("Looking in core/session.")}, Usage: usage}
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}, core.MessageEnd{Message: a},
		core.ToolExecutionStart{ToolCallID: "t1", ToolName: "task", Args: a.Content[0].Arguments},
		core.ToolExecutionRunning{ToolCallID: "t1", ToolName: "task"},
		update(core.SubagentProgress{ID: 1, Agent: "explore", Task: "find the parser", Status: core.SubagentAnswering, Turns: 1, Usage: usage,
			Step: "answering", Event: core.MessageEnd{Message: childAnswer}}),
		update(core.SubagentProgress{ID: 1, Agent: "explore", Task: "find the parser", Status: core.SubagentToolCall, Turns: 1, Usage: usage,
			Step: "grep: Parse", Event: lsStart}),
	})
	now = now.Add(2 * time.Second)
	r.send(tickMsg{})
	screen := ansi.Strip(r.m.render())
	for _, want := range []string{"task explore: find the parser", "1 turns", "1234 tokens", "→ grep: Parse", "2.0s"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not on screen while the child runs:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Looking in core/session.") {
		t.Fatalf("the collapsed block shows the child's steps:\n%s", screen)
	}
	r.send(key("ctrl+o"))
	screen = ansi.Strip(r.m.render())
	if !strings.Contains(screen, "Looking in core/session.") {
		t.Fatalf("the expanded block does not show the child's steps:\n%s", screen)
	}
	r.send(key("ctrl+o"))
	done, _ := json.Marshal(subagent.Details{Agent: "explore", Task: "find the parser", Status: "done", Turns: 2, Usage: usage})
	result := &core.ToolResultMessage{ToolCallID: "t1", ToolName: "task", Content: []core.Content{text("The parser is core/session/decode.go.")}, Details: done}
	r.send(eventsMsg{core.ToolExecutionEnd{ToolCallID: "t1", ToolName: "task", Result: core.ToolResult{Content: result.Content, Details: done}},
		core.MessageStart{Message: result}, core.MessageEnd{Message: result}})
	screen = ansi.Strip(r.m.render())
	if !strings.Contains(screen, "The parser is core/session/decode.go.") || !strings.Contains(screen, "2 turns") {
		t.Fatalf("the finished block lacks the answer or its turns:\n%s", screen)
	}
	if r.m.foot.usage.TotalTokens < usage.TotalTokens {
		t.Errorf("footer usage %d tokens, want the child's %d counted", r.m.foot.usage.TotalTokens, usage.TotalTokens)
	}
}

// In a resumed session the TUI did not see the subagent run: expanding
// the calls reads its transcript (off the update loop) for its steps.
func TestResumedSubagentExpandsToItsTranscript(t *testing.T) {
	dir := t.TempDir()
	f := session.Store{Dir: dir}.CreateWithID(dir, "t1")
	for _, m := range []core.Message{
		&core.UserMessage{Content: []core.Content{text("Find the parser.")}},
		&core.AssistantMessage{Content: []core.Content{text("Searching first."),
			{Type: core.ContentToolCall, ID: "g1", Name: "grep", Arguments: json.RawMessage(`{"pattern":"Parse"}`)}}, StopReason: core.StopToolUse},
		&core.ToolResultMessage{ToolCallID: "g1", ToolName: "grep", Content: []core.Content{text("decode.go:1")}},
		&core.AssistantMessage{Content: []core.Content{text("It is in decode.go.")}, StopReason: core.StopEnd},
	} {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	_ = f.Close()
	a := answer(call("t1", "task", map[string]any{"description": "find the parser", "prompt": "Find it.", "subagent_type": "explore"}))
	a.StopReason = core.StopToolUse
	d, _ := json.Marshal(subagent.Details{Agent: "explore", Task: "find the parser", Status: "done", Turns: 2, Transcript: f.FilePath()})
	result := &core.ToolResultMessage{ToolCallID: "t1", ToolName: "task", Content: []core.Content{text("It is in decode.go.")}, Details: d}
	r := newRig(t, rigOptions{history: []core.Message{&core.UserMessage{Content: []core.Content{text("find it")}}, a, result}})
	r.m.showConversation(r.sess.Messages())
	r.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	r.send(key("ctrl+o"))
	screen := ansi.Strip(r.m.render())
	for _, want := range []string{"Searching first.", "→ grep: Parse", "transcript:", filepath.Base(f.FilePath())} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not in the expanded block:\n%s", want, screen)
		}
	}
}
