package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// toolLine is the screen's row holding the header of the call to cmd.
func (r *rig) toolLine(cmd string) string {
	r.t.Helper()
	for _, l := range strings.Split(ansi.Strip(r.m.render()), "\n") {
		if strings.Contains(l, "$ "+cmd) {
			return l
		}
	}
	r.t.Fatalf("no call to %q on screen:\n%s", cmd, ansi.Strip(r.m.render()))
	return ""
}

// checkNotRun fails unless the header says the call did not run, with no
// mark of success or of waiting.
func checkNotRun(t *testing.T, line string) {
	t.Helper()
	if !strings.Contains(line, "not run") || strings.Contains(line, "✓") || strings.Contains(line, "●") {
		t.Errorf("the call is not shown as not run: %q", line)
	}
}

// TestInterruptedCallsShowAsNotRun: calls the run ended without starting
// (one still streaming, one waiting for approval when the person
// interrupted) show as not run once it settles, never as pending or done.
func TestInterruptedCallsShowAsNotRun(t *testing.T) {
	t.Run("streaming", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
		partial := answer(text("Cleaning up."), call("c1", "bash", map[string]any{"command": "make clean"}))
		partial.StopReason = core.StopAborted
		r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()},
			core.MessageUpdate{Kind: core.UpdateToolCallDelta, Index: 1, Message: partial}})
		r.send(eventsMsg{core.MessageEnd{Message: partial}, core.AgentEnd{}, core.Settled{}})
		checkNotRun(t, r.toolLine("make clean"))
	})
	t.Run("waiting for approval", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
		r.askApproval("make clean")
		r.send(eventsMsg{core.QuestionClosed{ID: "q1"},
			core.ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash", Result: core.ErrorResult("Tool execution was aborted")},
			core.AgentEnd{}, core.Settled{}})
		checkNotRun(t, r.toolLine("make clean"))
	})
}

// TestResumedCallWithoutResultShowsAsNotRun: a conversation resumed with
// --continue whose last answer's call has no result shows the call as not
// run, not as a success; a call with a result shows as it ended.
func TestResumedCallWithoutResultShowsAsNotRun(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.m.showConversation([]core.Message{
		&core.UserMessage{Content: []core.Content{text("build it")}},
		answer(call("c1", "bash", map[string]any{"command": "make"})),
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{text("ok")}},
		answer(call("c2", "bash", map[string]any{"command": "make install"})),
	})
	if l := r.toolLine("make "); !strings.Contains(l, "✓") {
		t.Errorf("the call that ran is not shown done: %q", l)
	}
	checkNotRun(t, r.toolLine("make install"))
}
