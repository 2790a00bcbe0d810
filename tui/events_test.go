package tui

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestDrainReadySendsWhatWaitsWithoutWaiting(t *testing.T) {
	ch := make(chan core.Event, 8)
	ch <- core.MessageUpdate{Kind: core.UpdateTextDelta}
	ch <- core.MessageUpdate{Kind: core.UpdateTextDelta}
	ch <- core.MessageEnd{}
	ch <- core.TurnEnd{}
	batch, open := drainReady(ch, eventsMsg{core.MessageStart{}})
	if !open || len(batch) != 5 {
		t.Fatalf("batch of %d (open %v), want all 5 waiting events", len(batch), open)
	}

	// A lone delta goes at once: nothing waits for more (the model's frame
	// clock decides when it is drawn). With nobody sending, a wait would
	// block this test.
	batch, open = drainReady(ch, eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta}})
	if !open || len(batch) != 1 {
		t.Fatalf("batch of %d, want the one delta", len(batch))
	}

	// A batch never grows past maxBatch.
	full := make(chan core.Event, maxBatch+8)
	for range maxBatch + 8 {
		full <- core.MessageUpdate{}
	}
	if batch, _ = drainReady(full, eventsMsg{}); len(batch) != maxBatch {
		t.Fatalf("batch of %d, want %d", len(batch), maxBatch)
	}

	close(ch)
	if _, open := drainReady(ch, eventsMsg{core.MessageUpdate{}}); open {
		t.Fatal("a closed subscription was reported open")
	}
}
