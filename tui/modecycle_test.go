package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// shift+tab steps through default, auto_edit and plan as Claude Code's
// does, back to default; the footer and the status line say the mode.
func TestShiftTabCyclesApprovalModes(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 24})
	shiftTab := tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	for _, want := range []approval.Mode{approval.ModeAutoEdit, approval.ModePlan, approval.ModeDefault, approval.ModeAutoEdit} {
		r.send(shiftTab)
		if got := r.gate.Mode(); got != want {
			t.Fatalf("after shift+tab: mode %s, want %s", got, want)
		}
		screen := ansi.Strip(r.m.render())
		if !strings.Contains(screen, "Approval mode: "+string(want)) {
			t.Errorf("the status does not say %s:\n%s", want, screen)
		}
		if plan := strings.Contains(screen, "⏸ plan mode"); plan != (want == approval.ModePlan) {
			t.Errorf("mode %s: footer shows plan mode %v:\n%s", want, plan, screen)
		}
	}
	// The thinking level moved to alt+t: shift+tab leaves it alone.
	if lvl := r.sess.State().Thinking; lvl != core.ThinkingOff {
		t.Errorf("thinking level %s", lvl)
	}
}

// A session started in yolo keeps yolo in the cycle, after plan.
func TestShiftTabKeepsTheStartingMode(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.gate.SetMode(approval.ModeYolo)
	r.m.startMode = approval.ModeYolo
	var got []approval.Mode
	for range 4 {
		r.send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
		got = append(got, r.gate.Mode())
	}
	want := []approval.Mode{approval.ModeDefault, approval.ModeAutoEdit, approval.ModePlan, approval.ModeYolo}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cycle from yolo: %v, want %v", got, want)
		}
	}
}

// The plan of exit_plan_mode shows in its call's box, the question under
// it with its keys;
// "e" accepts it going on in auto_edit.
func TestPlanQuestionAnsweredWithAKey(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.gate.SetMode(approval.ModePlan)
	events, stop := r.sess.Subscribe()
	defer stop()
	tool := r.gate.ExitPlanTool()
	call := core.ToolCall{ID: "p1", Name: approval.ExitPlanModeTool, Arguments: []byte(`{"plan":"1. Rename foo\n2. Run the tests"}`)}
	r.send(eventsMsg{core.AgentStart{}, core.ToolExecutionStart{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments}})
	decided := make(chan approval.Decision, 1)
	go func() { decided <- r.gate.Check(context.Background(), tool, call, r.sess) }()
	for e := range events {
		if q, ok := e.(core.Question); ok {
			r.send(eventsMsg{q})
			break
		}
	}
	screen := ansi.Strip(r.m.render())
	for _, want := range []string{"Accept this plan", "1. Rename foo", "2. Run the tests", "[y] accept (default)", "[e] accept, edits unasked (auto_edit)", "[n] keep planning"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not on screen:\n%s", want, screen)
		}
	}
	now := testClock.Add(time.Second) // past the guard against keys typed for something else
	r.m.now = func() time.Time { return now }
	r.send(key("e"))
	select {
	case d := <-decided:
		if !d.Allow {
			t.Fatalf("decision %+v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the key did not answer the plan question")
	}
	if _, err := tool.Execute(context.Background(), call, nil); err != nil || r.gate.Mode() != approval.ModeAutoEdit {
		t.Fatalf("mode after accepting: %s (%v)", r.gate.Mode(), err)
	}
}
