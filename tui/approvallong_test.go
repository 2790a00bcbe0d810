package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// longCommand is a shell command of about n characters whose end is the
// part that matters.
func longCommand(n int) string {
	var b strings.Builder
	b.WriteString("echo")
	for i := 1; b.Len() < n-30; i++ {
		fmt.Fprintf(&b, " step-%03d", i)
	}
	b.WriteString(" && rm -rf ./the-end-matters")
	return b.String()
}

// askApproval shows an approval question for a bash call running cmd.
func (r *rig) askApproval(cmd string) {
	a := answer(call("c1", "bash", map[string]any{"command": cmd}))
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}, core.MessageEnd{Message: a},
		core.ToolExecutionStart{ToolCallID: "c1", ToolName: "bash", Args: a.Content[0].Arguments}})
	r.send(eventsMsg{core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: " + cmd + "?", ToolCallID: "c1",
		Options: approvalOptions(approval.OptionAllowOnce, approval.OptionAllowSession, approval.OptionDeny)}})
}

// squeeze drops every space and line break, so text wrapped over rows
// compares with the text it came from.
func squeeze(s string) string {
	return strings.Join(strings.Fields(ansi.Strip(s)), "")
}

// checkScreen fails when the frame is taller or wider than the terminal.
func checkScreen(t *testing.T, frame string, width, height int) {
	t.Helper()
	checkWidth(t, frame, width)
	if n := strings.Count(frame, "\n") + 1; n > height {
		t.Errorf("the frame has %d rows, more than %d:\n%s", n, height, ansi.Strip(frame))
	}
}

// TestApprovalShowsTheWholeCommand: at 80x24 a 400-character command is
// on screen whole in the question, wrapped, not cut with an ellipsis.
func TestApprovalShowsTheWholeCommand(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := longCommand(400)
	r.askApproval(cmd)
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	if !strings.Contains(squeeze(frame), squeeze("Allow bash: "+cmd+"?")) {
		t.Fatalf("the question does not show the whole command:\n%s", ansi.Strip(frame))
	}
	if strings.Contains(frame, "lines 1-") {
		t.Errorf("a command that fits scrolls:\n%s", ansi.Strip(frame))
	}
}

// TestApprovalScrollsACommandTallerThanTheScreen: a command taller than
// the screen shows a window of it that the scroll keys move, so every part
// of it is seen before answering, and the frame never outgrows the
// terminal.
func TestApprovalScrollsACommandTallerThanTheScreen(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := longCommand(3000)
	r.askApproval(cmd)
	now = now.Add(time.Second) // past the guard that drops keys typed for something else
	seen := ""
	for i := 0; i < 40; i++ {
		frame := r.m.render()
		checkScreen(t, frame, 80, 24)
		if !strings.Contains(ansi.Strip(frame), "pgdown scroll") {
			t.Fatalf("a command taller than the screen says nothing of scrolling:\n%s", ansi.Strip(frame))
		}
		seen += " " + ansi.Strip(frame)
		if strings.Contains(frame, "the-end-matters?") {
			break
		}
		r.send(key("pgdown"))
	}
	for _, part := range strings.Fields(cmd) {
		if !strings.Contains(seen, part) {
			t.Fatalf("%q of the command was never on screen", part)
		}
	}
	r.send(key("pgup"), key("pgup"), key("up"))
	if f := ansi.Strip(r.m.render()); strings.Contains(f, "the-end-matters") {
		t.Errorf("pgup did not scroll back:\n%s", f)
	}
	r.send(key("y"))
	if r.m.approval != nil {
		t.Error("the scrolled prompt did not take its answer")
	}
}

// sgr matches a Select Graphic Rendition sequence.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// TestApprovalColoursTheCommandAsShell: the command in a bash approval is
// coloured as shell (its words, operators and strings apart), not one run
// of bold text, so `&& rm -rf` stands out in a long line.
func TestApprovalColoursTheCommandAsShell(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.askApproval(`make build && rm -rf "$HOME/cache" > /dev/null`)
	for _, l := range strings.Split(r.m.render(), "\n") {
		if !strings.Contains(ansi.Strip(l), "Allow bash:") {
			continue
		}
		seen := map[string]bool{}
		for _, s := range sgr.FindAllString(l, -1) {
			seen[s] = true
		}
		if len(seen) < 5 {
			t.Errorf("the question line has %d styles, want the command coloured as shell: %q", len(seen), l)
		}
		return
	}
	t.Fatal("no question line")
}
