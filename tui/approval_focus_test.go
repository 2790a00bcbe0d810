package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// pumpUntil sends the session's events to the model until one satisfies
// stop, within a time limit.
func (r *rig) pumpUntil(events <-chan core.Event, stop func(core.Event) bool) {
	r.t.Helper()
	limit := time.After(10 * time.Second)
	for {
		select {
		case e := <-events:
			r.send(eventsMsg{e})
			if stop(e) {
				return
			}
		case <-limit:
			r.t.Fatal("the awaited event did not come")
		}
	}
}

// pumpReady sends the events already waiting.
func (r *rig) pumpReady(events <-chan core.Event) {
	for {
		select {
		case e := <-events:
			r.send(eventsMsg{e})
		default:
			return
		}
	}
}

func isQuestion(e core.Event) bool { _, ok := e.(core.Question); return ok }

// TestTypingNeverAnswersAnApproval types a sentence at 12 keys a second
// while an answer streams and a write call asks for approval mid-sentence:
// no key answers the approval, and the draft keeps every character.
func TestTypingNeverAnswersAnApproval(t *testing.T) {
	r := newRig(t, rigOptions{responses: []faux.Response{
		{Content: []core.Content{text("I will write the file now."), call("w1", "write", map[string]any{"path": "out.txt", "content": "x"})}},
		{Text: "done"},
	}})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.m.opts.ApprovalGuard = 300 * time.Millisecond
	events, stop := r.sess.Subscribe()
	defer stop()
	r.typeText("write it")
	r.send(key("enter"))

	const sentence = "typing something yes no and more"
	const beforeQuestion = 11 // "typing some"
	for i, c := range sentence {
		now = now.Add(83 * time.Millisecond)
		r.send(key(string(c)))
		switch {
		case i == beforeQuestion-1:
			r.pumpUntil(events, isQuestion)
		case i >= beforeQuestion:
			r.pumpReady(events)
		}
	}
	if r.m.approval == nil {
		t.Fatal("a typed key answered the approval")
	}
	if got := r.m.ed.Value(); got != sentence {
		t.Fatalf("draft = %q, want %q", got, sentence)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "out.txt")); err == nil {
		t.Fatal("the write ran")
	}
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "Keys go to the editor: tab to answer") {
		t.Fatalf("the prompt does not say where the keys go:\n%s", screen)
	}

	// The switch is deliberate: tab, then n denies.
	r.send(key("tab"))
	if !r.m.approval.focused {
		t.Fatal("tab did not give the approval the keyboard")
	}
	now = now.Add(time.Second)
	r.send(key("n"))
	r.pumpUntil(events, func(e core.Event) bool { _, ok := e.(core.Settled); return ok })
	if r.m.approval != nil || r.m.ed.Value() != sentence {
		t.Fatalf("after tab n: approval %v, draft %q", r.m.approval, r.m.ed.Value())
	}
	if _, err := os.Stat(filepath.Join(r.dir, "out.txt")); err == nil {
		t.Fatal("the denied write ran")
	}
}

// TestAlwaysShowsRuleAndFile chooses "always": nothing is answered until
// enter, the prompt shows the rule and the file it is saved to, and the
// transcript keeps a line saying so.
func TestAlwaysShowsRuleAndFile(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(eventsMsg{core.AgentStart{}, core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: git status?", Message: "Remembering allows bash: git status.",
		Options: approvalOptions(approval.OptionAllowOnce, approval.OptionAllowSession, approval.OptionAllowAlways, approval.OptionDeny)}})
	if !r.m.approval.focused {
		t.Fatal("an approval shown to someone not typing does not have the keyboard")
	}
	now = now.Add(time.Second)
	r.send(key("a"))
	if r.m.approval == nil {
		t.Fatal("a choice that saves a rule was answered without confirmation")
	}
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "bash: git status") || !strings.Contains(screen, filepath.Join(".cairn", "approvals.json")) {
		t.Fatalf("the confirmation does not show the rule and its file:\n%s", screen)
	}
	r.send(key("enter"))
	if r.m.approval != nil {
		t.Fatal("enter did not confirm")
	}
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "saved to .cairn/approvals.json") {
		t.Fatalf("the transcript does not say where the rule went:\n%s", screen)
	}
}

// TestSendingTheDraftHandsTheKeyboardToTheApproval types while an
// approval appears, then sends the draft: the approval has the keyboard.
func TestSendingTheDraftHandsTheKeyboardToTheApproval(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.typeText("half a thought")
	r.send(eventsMsg{core.AgentStart{}, core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: ls?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)}})
	if r.m.approval.focused {
		t.Fatal("the approval took the keyboard from a draft")
	}
	r.send(key("enter"))
	if !r.m.approval.focused {
		t.Fatal("after the draft was sent, the approval does not have the keyboard")
	}
}

// TestAllowMCPServerShowsTheServerRule chooses "MCP server" for an MCP
// tool: the key is m, and the confirmation names every tool of the server.
func TestAllowMCPServerShowsTheServerRule(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.send(eventsMsg{core.AgentStart{}, core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow mcp__github__search?", Message: "Remembering allows mcp__github__search.",
		Options: approvalOptions(approval.OptionAllowOnce, approval.OptionAllowSession, approval.OptionAllowServer, approval.OptionDeny)}})
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "[m] MCP server") {
		t.Fatalf("no [m] MCP server choice:\n%s", screen)
	}
	now = now.Add(time.Second)
	r.send(key("m"))
	if r.m.approval == nil {
		t.Fatal("a choice that saves a rule was answered without confirmation")
	}
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "every tool of the MCP server github (mcp__github__*)") {
		t.Fatalf("the confirmation does not name the server's rule:\n%s", screen)
	}
	r.send(key("enter"))
	if r.m.approval != nil {
		t.Fatal("enter did not confirm")
	}
}
