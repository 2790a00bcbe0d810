package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// fakeSessions is a conversation store with two stored conversations and
// a tree.
type fakeSessions struct {
	branchedAt []string
	opened     []string
	name       string
	mem        *agent.MemoryConversations
}

func newFakeSessions() *fakeSessions {
	return &fakeSessions{mem: agent.NewMemoryConversations(nil)}
}

func (f *fakeSessions) Info() agent.ConversationInfo {
	return agent.ConversationInfo{ID: "cur", File: "/s/cur.jsonl", Name: f.name}
}
func (f *fakeSessions) Store() agent.Store               { return f.mem.Store() }
func (f *fakeSessions) SetName(name string) error        { f.name = name; return nil }
func (f *fakeSessions) New(string) (agent.Loaded, error) { return agent.Loaded{}, nil }
func (f *fakeSessions) List() ([]session.Info, error) {
	return []session.Info{
		{Path: "/s/cur.jsonl", FirstMessage: "the current one"},
		{Path: "/s/old.jsonl", FirstMessage: "fix the flaky test", MessageCount: 12, Modified: testClock.Add(-3 * time.Hour)},
	}, nil
}
func (f *fakeSessions) Open(path string) (agent.Loaded, error) {
	f.opened = append(f.opened, path)
	return agent.Loaded{Messages: []core.Message{
		&core.UserMessage{Content: []core.Content{text("fix the flaky test")}},
		answer(text("It was a race in the cache.")),
	}}, nil
}
func (f *fakeSessions) Fork(id string) (string, agent.Loaded, error) {
	return "second question", agent.Loaded{}, nil
}
func (f *fakeSessions) Tree() ([]agent.TreeNode, error) {
	return []agent.TreeNode{
		{ID: "u1", Role: "user", Text: "first question", OnPath: true},
		{ID: "a1", ParentID: "u1", Role: "assistant", Text: "first answer", OnPath: true},
		{ID: "u2", ParentID: "a1", Role: "user", Text: "second question\nwith two lines", OnPath: true},
		{ID: "a2", ParentID: "u2", Role: "assistant", Text: "second answer", OnPath: true},
	}, nil
}
func (f *fakeSessions) Branch(id string) (agent.Loaded, error) {
	f.branchedAt = append(f.branchedAt, id)
	return agent.Loaded{Messages: []core.Message{&core.UserMessage{Content: []core.Content{text("first question")}}, answer(text("first answer"))}}, nil
}
func (f *fakeSessions) ForkPoints() ([]agent.ForkPoint, error) { return nil, nil }
func (f *fakeSessions) Close() error                           { return nil }

func sessionsRig(t *testing.T) (*rig, *fakeSessions) {
	fs := newFakeSessions()
	return sessionsRigWith(t, fs), fs
}

func sessionsRigWith(t *testing.T, c agent.Conversations) *rig {
	r := newRig(t, rigOptions{conversations: c})
	r.send(key("enter")) // nothing typed: nothing happens
	return r
}

func (r *rig) command(s string) {
	r.typeText(s)
	r.send(key("esc")) // close the completion popup
	r.send(key("enter"))
}

func TestResumeOpensTheChosenSession(t *testing.T) {
	r, fs := sessionsRig(t)
	r.command("/resume")
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "fix the flaky test") || strings.Contains(screen, "the current one") {
		t.Fatalf("picker does not list the other session only:\n%s", screen)
	}
	r.send(key("enter"))
	if len(fs.opened) != 1 || fs.opened[0] != "/s/old.jsonl" {
		t.Fatalf("opened %v", fs.opened)
	}
	if got := len(r.sess.Messages()); got != 2 {
		t.Fatalf("session holds %d messages after resuming, want 2", got)
	}
	if !strings.Contains(ansi.Strip(r.m.render()), "race in the cache") {
		t.Fatal("the resumed conversation is not shown")
	}
}

func TestTreeGoesBeforeAUserMessage(t *testing.T) {
	r, fs := sessionsRig(t)
	r.command("/tree")
	// The newest entry is selected; one up is the second question.
	r.send(key("up"))
	r.send(key("enter"))
	if len(fs.branchedAt) != 1 || fs.branchedAt[0] != "a1" {
		t.Fatalf("branched at %v, want the parent of the chosen user message", fs.branchedAt)
	}
	if got := r.m.ed.Value(); got != "second question\nwith two lines" {
		t.Fatalf("editor holds %q, want the chosen message to edit", got)
	}
}

func TestNameShowsInFooter(t *testing.T) {
	r, fs := sessionsRig(t)
	r.command("/name parser work")
	if fs.name != "parser work" || !strings.Contains(ansi.Strip(r.m.render()), "parser work") {
		t.Fatalf("name = %q; footer:\n%s", fs.name, ansi.Strip(r.m.render()))
	}
}

// TestTreeIndentsBranches shows each branch one step deeper than the entry
// it grows from, its first entry marked ↳, and everything after it on that
// branch at the same depth.
func TestTreeIndentsBranches(t *testing.T) {
	r := sessionsRigWith(t, branchedSessions{newFakeSessions()})
	r.command("/tree")
	var got []string
	for _, it := range r.m.picker.all {
		got = append(got, it.label)
	}
	want := []string{
		"• user: q",
		"• assistant: a",
		"↳   user: old follow-up",
		"    assistant: old answer",
		"↳ • user: new follow-up",
		"  • assistant: new answer",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tree labels:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type branchedSessions struct{ *fakeSessions }

func (branchedSessions) Tree() ([]agent.TreeNode, error) {
	return []agent.TreeNode{
		{ID: "u1", Role: "user", Text: "q", OnPath: true},
		{ID: "a1", ParentID: "u1", Role: "assistant", Text: "a", OnPath: true},
		{ID: "u2", ParentID: "a1", Role: "user", Text: "old follow-up"},
		{ID: "a2", ParentID: "u2", Role: "assistant", Text: "old answer"},
		{ID: "u3", ParentID: "a1", Role: "user", Text: "new follow-up", OnPath: true},
		{ID: "a3", ParentID: "u3", Role: "assistant", Text: "new answer", OnPath: true},
	}, nil
}

// TestTreeRowsArePlainAndUseTheWidth: an answer's row in /tree shows its
// words, not its markdown, and a long row uses the screen's width rather
// than half of it.
func TestTreeRowsArePlainAndUseTheWidth(t *testing.T) {
	r := sessionsRigWith(t, markdownSessions{newFakeSessions()})
	r.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	r.command("/tree")
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "assistant: Plan I read the file and fixed Parse: the empty input case now returns an error, covered by a new") {
		t.Errorf("the tree row is not the answer's plain words across the width:\n%s", screen)
	}
}

type markdownSessions struct{ *fakeSessions }

func (markdownSessions) Tree() ([]agent.TreeNode, error) {
	return []agent.TreeNode{
		{ID: "u1", Role: "user", Text: "fix it", OnPath: true},
		{ID: "a1", ParentID: "u1", Role: "assistant", OnPath: true,
			Text: "## Plan\n\nI **read** the file and fixed `Parse`: the empty input case now returns an error, covered by a new table test."},
	}, nil
}

// TestCancelledSwitchIsANotice: an extension that cancels /new keeps the
// conversation, and the TUI says so as a notice, not an error.
func TestCancelledSwitchIsANotice(t *testing.T) {
	ic := agent.Interceptor{Name: `extension "guard"`, BeforeSwitch: func(context.Context, agent.SwitchEvent) (agent.SwitchResult, error) {
		return agent.SwitchResult{Cancel: true, Reason: "commit first"}, nil
	}}
	r := newRig(t, rigOptions{interceptors: []agent.Interceptor{ic}, conversations: newFakeSessions(),
		history: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("keep me")}}}})
	r.command("/new")
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, `New session cancelled by extension "guard": commit first.`) {
		t.Errorf("no notice of the cancel:\n%s", screen)
	}
	if len(r.sess.Messages()) != 1 {
		t.Errorf("the conversation was not kept: %d messages", len(r.sess.Messages()))
	}
}

// TestShutdownQuits: closing Options.Shutdown (an extension's
// ctx.shutdown) quits as /quit does.
func TestShutdownQuits(t *testing.T) {
	ch := make(chan struct{})
	r := newRig(t, rigOptions{})
	r.m.opts.Shutdown = ch
	close(ch)
	var got tea.Msg
	for _, c := range r.m.Init()().(tea.BatchMsg) {
		if c == nil {
			continue
		}
		if msg, ok := c().(shutdownMsg); ok {
			got = msg
		}
	}
	if got == nil {
		t.Fatal("Init does not watch Shutdown")
	}
	_, cmd := r.m.Update(got)
	if !r.m.quitting || cmd == nil {
		t.Errorf("not quitting: %v", r.m.quitting)
	}
}
