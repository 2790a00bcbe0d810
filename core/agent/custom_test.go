package agent

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestAppendCustom: an extension's custom entry joins the session file at
// the tip of the branch, and is read back with the other entries; a
// session kept in memory says it keeps none.
func TestAppendCustom(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	convs := NewFileConversations(store, dir, store.Create(dir))
	f := newFixture(t, Config{Conversations: convs}, faux.Response{Text: "hi"})
	_ = f.s.Prompt("hello", nil, BehaviorNone)
	f.untilSettled()
	id, err := f.s.AppendCustom("mark", json.RawMessage(`{"n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	entries, tip, err := f.s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	c, ok := last.Payload.(*session.CustomEntry)
	if tip != id || last.ID != id || !ok || c.CustomType != "mark" || string(c.Data) != `{"n":1}` {
		t.Errorf("tip %s, last %+v %+v", tip, last, last.Payload)
	}
	if _, err := f.s.AppendCustom("", nil); err == nil {
		t.Error("an entry without a type was kept")
	}

	mem := newFixture(t, Config{})
	if id, err := mem.s.AppendCustom("mark", nil); err != nil || id == "" {
		t.Errorf("in memory: %q %v", id, err)
	}
}
