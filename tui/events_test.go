package tui

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestCollectBatchesDeltasAndSendsOthersAtOnce(t *testing.T) {
	ch := make(chan core.Event, 8)
	ch <- core.MessageUpdate{Kind: core.UpdateTextDelta}
	ch <- core.MessageUpdate{Kind: core.UpdateTextDelta}
	ch <- core.MessageEnd{}
	ch <- core.TurnEnd{}
	batch, open := collect(ch, eventsMsg{core.MessageStart{}})
	if !open || len(batch) != 5 {
		t.Fatalf("batch of %d (open %v), want all 5 waiting events", len(batch), open)
	}

	// Deltas alone wait for the window, then go.
	ch <- core.MessageUpdate{Kind: core.UpdateTextDelta}
	batch, open = collect(ch, eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta}})
	if !open || len(batch) != 2 {
		t.Fatalf("batch of %d, want 2", len(batch))
	}

	// A structural event ends the wait for more deltas.
	go func() { ch <- core.MessageEnd{} }()
	batch, _ = collect(ch, eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta}})
	if _, ok := batch[len(batch)-1].(core.MessageEnd); !ok || len(batch) != 2 {
		t.Fatalf("batch = %#v, want the delta and the end", batch)
	}

	close(ch)
	if _, open := collect(ch, eventsMsg{core.MessageUpdate{}}); open {
		t.Fatal("a closed subscription was reported open")
	}
}
