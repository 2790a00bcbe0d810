package agent

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestSetLabel: a label joins the session file, the tree shows it on its
// entry, an empty one clears it, and an unknown entry is refused.
func TestSetLabel(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	convs := NewFileConversations(store, dir, store.Create(dir))
	f := newFixture(t, Config{Conversations: convs}, faux.Response{Text: "hi"})
	_ = f.s.Prompt("hello", nil, BehaviorNone)
	f.untilSettled()
	labelOf := func(role string) string {
		nodes, err := f.s.Tree()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if n.Role == role {
				return n.ID + "=" + n.Label
			}
		}
		t.Fatalf("no %s in %+v", role, nodes)
		return ""
	}
	id := labelOf("assistant")
	id = id[:len(id)-1]
	if err := f.s.SetLabel(id, "answer"); err != nil {
		t.Fatal(err)
	}
	if got := labelOf("assistant"); got != id+"=answer" {
		t.Errorf("after labelling: %q", got)
	}
	entries, tip, _ := f.s.Entries()
	if l, ok := entries[len(entries)-1].Payload.(*session.LabelEntry); !ok || l.TargetID != id || entries[len(entries)-1].ID != tip {
		t.Errorf("last entry %+v, tip %s", entries[len(entries)-1], tip)
	}
	if err := f.s.SetLabel(id, ""); err != nil {
		t.Fatal(err)
	}
	if got := labelOf("assistant"); got != id+"=" {
		t.Errorf("after clearing: %q", got)
	}
	if err := f.s.SetLabel("nope", "x"); !errors.Is(err, session.ErrUnknownEntry) {
		t.Errorf("unknown entry: %v", err)
	}
}
