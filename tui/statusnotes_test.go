package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestStatusNoteDoesNotOutliveItsTurn: a note about what came before
// ("Model: ...") goes when the next turn starts, not 8 seconds into it.
func TestStatusNoteDoesNotOutliveItsTurn(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.m.status.set(core.NotifyInfo, "Model: anthropic/claude-sonnet-4-5", r.m.now())
	r.send(eventsMsg{core.AgentStart{}})
	if s := ansi.Strip(r.m.render()); strings.Contains(s, "Model: anthropic") {
		t.Errorf("the note stays into the next turn:\n%s", s)
	}
}

// TestStatusNoteWraps: a long note wraps instead of losing its end at the
// right edge.
func TestStatusNoteWraps(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	note := "Thinking: high (claude-sonnet-4-5 has no xhigh; high is its most) · and a note long enough to need a second line: the-end"
	r.m.status.set(core.NotifyInfo, note, r.m.now())
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	if !strings.Contains(squeeze(frame), squeeze(note)) {
		t.Errorf("the note is cut:\n%s", ansi.Strip(frame))
	}
}

// TestDenyReasonWaitsForYou: while a deny reason is typed the working line
// says the agent waits for the person, not that it runs a tool, and the
// wait is not working time.
func TestDenyReasonWaitsForYou(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.askApproval("ls")
	now = now.Add(time.Second)
	r.send(key("r"))
	_, _ = r.m.Update(eventsMsg{core.QuestionClosed{ID: "q1"},
		core.Question{ID: "q2", Kind: core.QuestionInput, Purpose: core.PurposeDenyReason, Title: "Why deny bash: ls?", ToolCallID: "c1"}})
	now = now.Add(5 * time.Second)
	s := ansi.Strip(r.m.render())
	if strings.Contains(s, "running a tool") || !strings.Contains(s, "Waiting for you") {
		t.Errorf("typing a deny reason does not say the agent waits:\n%s", s)
	}
}

// TestCtrlCDuringAnApprovalInterrupts: ctrl+c on a focused approval stops
// the run, as it does from the editor.
func TestCtrlCDuringAnApprovalInterrupts(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.askApproval("ls")
	if !r.m.approval.focused {
		t.Fatal("the approval does not have the keyboard")
	}
	r.send(key("ctrl+c"))
	if !r.m.aborting {
		t.Error("ctrl+c on the approval did not interrupt the run")
	}
}
