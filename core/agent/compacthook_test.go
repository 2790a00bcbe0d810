package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestBeforeCompactSuppliesTheCompaction: a BeforeCompact handler (pi's
// session_before_compact) sees the prepared compaction and may write it
// itself: its summary is kept, from hook, the model is not asked, and the
// context starts with it.
func TestBeforeCompactSuppliesTheCompaction(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	convs := NewFileConversations(store, dir, store.Create(dir))
	var seen CompactEvent
	ic := Interceptor{Name: "ext", BeforeCompact: func(_ context.Context, e CompactEvent) (CompactResult, error) {
		seen = e
		return CompactResult{Compaction: &SuppliedCompaction{Summary: "my summary", FirstKeptEntryID: e.FirstKeptEntryID,
			TokensBefore: e.Preparation.TokensBefore, Details: json.RawMessage(`{"by":"ext"}`)}}, nil
	}}
	f := newFixture(t, Config{Conversations: convs, Compaction: keepLittle, Interceptors: []Interceptor{ic}},
		faux.Response{Text: "a"}, faux.Response{Text: "b"}, faux.Response{Text: "the model's summary"})
	for _, q := range questions {
		_ = f.s.Prompt(q, nil, BehaviorNone)
		f.untilSettled()
	}
	res, err := f.s.Compact(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if seen.Preparation == nil || len(seen.Preparation.Summarize) == 0 || seen.FirstKeptEntryID == "" || seen.Reason != core.CompactionManual {
		t.Fatalf("the handler saw %+v", seen)
	}
	if f.fp.Calls() != 2 {
		t.Errorf("%d requests: the model was asked for a summary the extension wrote", f.fp.Calls())
	}
	if res.Summary != "my summary" || res.FirstKeptEntryID != seen.FirstKeptEntryID {
		t.Errorf("result %+v", res)
	}
	if cs, ok := f.s.Messages()[0].(*core.CompactionSummaryMessage); !ok || cs.Summary != "my summary" {
		t.Errorf("the context starts with %+v", f.s.Messages()[0])
	}
	entries, _, _ := f.s.Entries()
	c, ok := entries[len(entries)-1].Payload.(*session.CompactionEntry)
	if !ok || !c.FromHook || string(c.Details) != `{"by":"ext"}` || c.FirstKeptEntryID != seen.FirstKeptEntryID {
		t.Errorf("entry %+v", entries[len(entries)-1].Payload)
	}
}

// TestBeforeCompactWithUnknownFirstKept: a supplied compaction keeping
// from an entry the conversation does not have is refused, and nothing
// changes.
func TestBeforeCompactWithUnknownFirstKept(t *testing.T) {
	ic := Interceptor{Name: "ext", BeforeCompact: func(context.Context, CompactEvent) (CompactResult, error) {
		return CompactResult{Compaction: &SuppliedCompaction{Summary: "s", FirstKeptEntryID: "nope"}}, nil
	}}
	f := newFixture(t, Config{Compaction: keepLittle, Interceptors: []Interceptor{ic}}, faux.Response{Text: "a"}, faux.Response{Text: "b"})
	for _, q := range questions {
		_ = f.s.Prompt(q, nil, BehaviorNone)
		f.untilSettled()
	}
	n := len(f.s.Messages())
	if _, err := f.s.Compact(context.Background(), ""); err == nil {
		t.Fatal("compacted from an unknown entry")
	}
	if len(f.s.Messages()) != n {
		t.Errorf("the context changed")
	}
}
