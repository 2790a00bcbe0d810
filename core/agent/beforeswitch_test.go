package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestBeforeSwitchCancelsAndTellsWhatMoves: each move to another
// conversation is asked about with its kind, target and entry; a cancel,
// or a failing handler, leaves the conversation as it was; Branch, a move
// within the conversation, is not asked about.
func TestBeforeSwitchCancelsAndTellsWhatMoves(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	var seen []SwitchEvent
	decide := func(SwitchEvent) (SwitchResult, error) {
		return SwitchResult{Cancel: true, Reason: "uncommitted work"}, nil
	}
	ic := Interceptor{Name: "extension \"guard\"", BeforeSwitch: func(_ context.Context, e SwitchEvent) (SwitchResult, error) {
		seen = append(seen, e)
		return decide(e)
	}}
	f := newFixture(t, Config{Conversations: NewFileConversations(store, dir, store.Create(dir)), Interceptors: []Interceptor{ic}},
		faux.Response{Text: "first answer"}, faux.Response{Text: "second answer"})
	for _, p := range []string{"first question", "second question"} {
		_ = f.s.Prompt(p, nil, BehaviorNone)
		f.untilSettled()
	}
	before := f.s.Conversation()
	points, err := f.s.ForkPoints()
	if err != nil || len(points) != 2 {
		t.Fatalf("fork points %+v, %v", points, err)
	}
	_, leaf, err := f.s.Entries()
	if err != nil {
		t.Fatal(err)
	}

	cancelled := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrSwitchCancelled) || !strings.Contains(err.Error(), "guard") || !strings.Contains(err.Error(), "uncommitted work") {
			t.Errorf("%s: %v", what, err)
		}
		if f.s.Conversation().ID != before.ID || len(f.s.Messages()) != 4 {
			t.Errorf("%s moved the session: %+v, %d messages", what, f.s.Conversation(), len(f.s.Messages()))
		}
	}
	cancelled("new", f.s.NewConversation(""))
	cancelled("resume", f.s.OpenConversation("/elsewhere.jsonl"))
	_, err = f.s.Fork(points[1].EntryID)
	cancelled("fork", err)
	cancelled("clone", f.s.Clone())
	want := []SwitchEvent{{Kind: SwitchNew}, {Kind: SwitchResume, Target: "/elsewhere.jsonl"},
		{Kind: SwitchFork, EntryID: points[1].EntryID}, {Kind: SwitchClone, EntryID: leaf}}
	if len(seen) != len(want) {
		t.Fatalf("asked %+v", seen)
	}
	for i, w := range want {
		w.Conversation = before
		if seen[i] != w {
			t.Errorf("asked %+v, want %+v", seen[i], w)
		}
	}

	if err := f.s.Branch(points[0].EntryID); err != nil || len(seen) != 4 {
		t.Errorf("branch: %v, asked %d times", err, len(seen))
	}

	decide = func(SwitchEvent) (SwitchResult, error) { return SwitchResult{}, errors.New("crashed") }
	if err := f.s.NewConversation(""); !errors.Is(err, ErrSwitchCancelled) || f.s.Conversation().ID != before.ID {
		t.Errorf("failing handler: %v", err)
	}

	decide = func(SwitchEvent) (SwitchResult, error) { return SwitchResult{}, nil }
	if err := f.s.NewConversation(""); err != nil || f.s.Conversation().ID == before.ID || len(f.s.Messages()) != 0 {
		t.Errorf("allowed: %v, %+v", err, f.s.Conversation())
	}
}
