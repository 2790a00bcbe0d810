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

// TestApprovalStateIsWaitingForYou shows an approval at 80 columns: the
// status says cairn waits for the person (and what esc does) instead of
// a working timer, every option is on screen, and the wait does not count
// as working time.
func TestApprovalStateIsWaitingForYou(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{core.AgentStart{}})
	now = now.Add(time.Second)
	r.send(approvalScreen(r)...)
	now = now.Add(10 * time.Second)
	screen := ansi.Strip(r.m.render())
	for _, want := range []string{"Waiting for you 10.0s · esc denies", "[y] once", "[s] session", "[a] always", "[n] deny", "[r] deny+reason"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("%q is not on screen:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Working…") {
		t.Fatalf("the status says Working while waiting for the person:\n%s", screen)
	}
	r.send(key("y"))
	now = now.Add(time.Second)
	if screen = ansi.Strip(r.m.render()); !strings.Contains(screen, "Working: running a tool… 2.0s") {
		t.Fatalf("the working time counts the wait:\n%s", screen)
	}
}

// TestDenyReasonHasOneCursor opens the deny-reason prompt: the editor
// gives up its cursor while the reason is typed, and takes it back after.
func TestDenyReasonHasOneCursor(t *testing.T) {
	r := newRig(t, rigOptions{})
	// The input's cursor blink command would wait forever outside a
	// program: it is dropped.
	_, _ = r.m.Update(eventsMsg{core.Question{ID: "q2", Kind: core.QuestionInput, Purpose: core.PurposeDenyReason, Title: "Why deny bash: ls?"}})
	if r.m.ed.Focused() {
		t.Fatal("the editor shows a cursor while the deny reason is typed")
	}
	for _, c := range "use make" {
		_, _ = r.m.Update(key(string(c)))
	}
	r.send(key("enter"))
	if !r.m.ed.Focused() || r.m.ed.Value() != "" {
		t.Fatalf("after the reason: editor focused %v, draft %q", r.m.ed.Focused(), r.m.ed.Value())
	}
}

// TestDeniedEditKeepsItsDiff denies an edit: the diff it would have made
// stays in the transcript under the denial.
func TestDeniedEditKeepsItsDiff(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	it := &toolItem{id: "e1", name: "edit", args: mustJSON(map[string]any{"path": "main.go", "edits": []map[string]string{{"oldText": "hi", "newText": "hello"}}}),
		previewDiff: "  4 func main() {\n- 5 \tfmt.Println(\"hi\")\n+ 5 \tfmt.Println(\"hello\")\n  6 }"}
	r.m.tr.add(it)
	d := approval.Decision{By: approval.ByPerson, Reason: "keep hi"}
	it.finish(&core.ToolResult{IsError: true, Content: []core.Content{text(d.DenialText())}}, testClock)
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "keep hi") || !strings.Contains(screen, "fmt.Println(\"hello\")") {
		t.Fatalf("the denied edit lost its diff:\n%s", screen)
	}
}

// TestStatusNamesTheAgentsState follows one turn: the working line says
// thinking, then writing, then running the tools.
func TestStatusNamesTheAgentsState(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	state := func(want string) {
		t.Helper()
		if s := ansi.Strip(r.m.render()); !strings.Contains(s, want) {
			t.Fatalf("the status does not say %q:\n%s", want, s)
		}
	}
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()},
		core.MessageUpdate{Kind: core.UpdateThinkingDelta, Message: answer(thinking("Let me see."))}})
	state("Working: thinking…")
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Index: 1, Message: answer(thinking("Let me see."), text("I will run two checks."))}})
	state("Working: writing…")
	a := answer(thinking("Let me see."), text("I will run two checks."), call("t1", "bash", map[string]any{"command": "go vet"}), call("t2", "bash", map[string]any{"command": "go test"}))
	a.StopReason = core.StopToolUse
	r.send(eventsMsg{core.MessageEnd{Message: a},
		core.ToolExecutionStart{ToolCallID: "t1", ToolName: "bash", Args: a.Content[2].Arguments},
		core.ToolExecutionStart{ToolCallID: "t2", ToolName: "bash", Args: a.Content[3].Arguments}})
	state("Working: running 2 tools…")
}

// TestInputQuestionAnswersWithItsText answers a text question: the prefill
// is there to edit, enter sends the text as the answer, and nothing is
// sent to the model as a prompt.
func TestInputQuestionAnswersWithItsText(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	got := r.ask(core.Question{Kind: core.QuestionInput, Title: "Branch name?", Prefill: "fix-"})
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "Branch name?") || !strings.Contains(s, "fix-") {
		t.Fatalf("the question or its prefill is not shown:\n%s", s)
	}
	r.typeText("login")
	r.send(key("enter"))
	select {
	case rep := <-got:
		if rep.out != core.Answered || rep.a.Value != "fix-login" {
			t.Fatalf("answer %+v, outcome %v", rep.a, rep.out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("enter did not answer the question")
	}
	if n := len(r.sess.Messages()); n != 0 || r.m.dialog != nil {
		t.Fatalf("after the answer: %d messages in the session, dialog %v", n, r.m.dialog)
	}
}
