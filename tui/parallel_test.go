package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// TestParallelCallsHaveTheirOwnTime runs three calls of one turn, two of
// them approved after a wait: while an approval is pending no call spins,
// each call reports its own time from when the calls really ran, and the
// blocks are one blank line apart.
func TestParallelCallsHaveTheirOwnTime(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 80, Height: 40})
	a := answer(call("a", "bash", map[string]any{"command": "sleep 0.2"}), call("b", "read", map[string]any{"path": "go.mod"}), call("c", "bash", map[string]any{"command": "sleep 1"}))
	a.StopReason = core.StopToolUse
	ask := func(id, command string) core.Question {
		return core.Question{ID: "q-" + id, Kind: core.QuestionSelect, Purpose: core.PurposeApproval, ToolCallID: id,
			Title: "Allow bash: " + command + "?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)}
	}
	start := func(id string) core.ToolExecutionStart {
		return core.ToolExecutionStart{ToolCallID: id, ToolName: "bash", Args: a.Content[0].Arguments}
	}
	end := func(id string) core.ToolExecutionEnd {
		return core.ToolExecutionEnd{ToolCallID: id, ToolName: "bash", Result: core.ToolResult{Content: []core.Content{text("ok")}}}
	}
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}, core.MessageEnd{Message: a}, start("a"), ask("a", "sleep 0.2")})
	now = now.Add(5 * time.Second)
	r.send(key("y"))
	r.send(eventsMsg{core.ToolExecutionStart{ToolCallID: "b", ToolName: "read", Args: a.Content[1].Arguments}, start("c"), ask("c", "sleep 1")})
	now = now.Add(3 * time.Second)
	r.send(tickMsg{})
	screen := ansi.Strip(r.m.render())
	if strings.ContainsAny(screen, strings.Join(spinnerFrames, "")) {
		t.Fatalf("a call spins while the turn waits for an approval:\n%s", screen)
	}
	r.send(key("y"))
	now = now.Add(200 * time.Millisecond)
	r.send(eventsMsg{end("a")})
	now = now.Add(400 * time.Millisecond)
	r.send(eventsMsg{core.ToolExecutionEnd{ToolCallID: "b", ToolName: "read", Result: core.ToolResult{Content: []core.Content{text("module x")}}}})
	now = now.Add(400 * time.Millisecond)
	r.send(eventsMsg{end("c")})
	screen = ansi.Strip(r.m.render())
	for _, want := range []string{"sleep 0.2", "200ms", "600ms", "sleep 1", "1.0s"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not on screen:\n%s", want, screen)
		}
	}
	lines := strings.Split(screen, "\n")
	var heads []int
	for i, l := range lines {
		if strings.Contains(l, "✓") {
			heads = append(heads, i)
		}
	}
	if len(heads) != 3 {
		t.Fatalf("%d finished calls on screen, want 3:\n%s", len(heads), screen)
	}
	for _, h := range heads[1:] {
		if strings.TrimSpace(lines[h-1]) != "" || strings.TrimSpace(lines[h-2]) == "" {
			t.Fatalf("calls are not one blank line apart:\n%s", screen)
		}
	}
}
