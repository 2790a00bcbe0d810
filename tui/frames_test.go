package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// TestFrameClock draws a changed frame at once, holds streamed changes
// until the frame is due, and spaces frame ticks a whole interval apart.
func TestFrameClock(t *testing.T) {
	now := testClock
	draws := 0
	draw := func() tea.View { draws++; return tea.NewView("frame") }
	f := frameClock{interval: 40 * time.Millisecond}

	f.frame(now, draw)
	if draws != 1 {
		t.Fatalf("the first View drew %d frames, want 1", draws)
	}
	f.frame(now, draw)
	if draws != 1 {
		t.Fatal("an unchanged model was drawn again")
	}

	// A delta 5 ms after the frame waits for the tick.
	now = now.Add(5 * time.Millisecond)
	f.streamed(now)
	f.frame(now, draw)
	if draws != 1 || !f.pending {
		t.Fatalf("a delta within the interval was drawn at once (draws %d, pending %v)", draws, f.pending)
	}
	if w := f.wait(now); w != 35*time.Millisecond {
		t.Fatalf("the next frame is due in %v, want 35ms", w)
	}

	// The tick (an Update that is no delta) draws, and the next tick is
	// due a whole interval after that frame, not at once.
	now = now.Add(35 * time.Millisecond)
	f.changed()
	if w := f.wait(now); w != 40*time.Millisecond {
		t.Fatalf("after the tick the next frame is due in %v, want 40ms", w)
	}
	f.frame(now, draw)
	if draws != 2 || f.pending {
		t.Fatalf("the tick drew %d frames (pending %v), want 2 in all", draws-1, f.pending)
	}

	// A delta long after the last frame is drawn at once.
	now = now.Add(time.Second)
	f.streamed(now)
	f.frame(now, draw)
	if draws != 3 {
		t.Fatal("a delta after a quiet second waited for a tick")
	}

	// A key is drawn at once, however recent the last frame.
	f.changed()
	f.frame(now, draw)
	if draws != 4 {
		t.Fatal("a key waited for a tick")
	}
}

// TestStreamDrawsOncePerFrame streams deltas every 5 ms through Update and
// View, as a program does, delivering the frame ticks the model asks for
// when they are due, and counts the frames drawn: one per interval, not
// one per delta or two per tick.
func TestStreamDrawsOncePerFrame(t *testing.T) {
	r := newRig(t, rigOptions{})
	c := &benchClock{t: testClock}
	paced(r, c)
	r.m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
	_ = r.m.View()
	start := r.m.frames.draws
	var body strings.Builder
	for range 200 { // one second of deltas
		c.t = c.t.Add(5 * time.Millisecond)
		if r.m.frames.ticking && !c.t.Before(r.m.frames.due) {
			r.m.Update(tickMsg{})
			_ = r.m.View()
		}
		body.WriteString("word ")
		r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "word ", Message: answer(text(body.String()))}})
		_ = r.m.View()
	}
	if n := r.m.frames.draws - start; n < 23 || n > 27 {
		t.Fatalf("a second of deltas drew %d frames, want 25", n)
	}
	if !strings.Contains(r.m.View().Content, "word word") {
		t.Fatal("the stream is not on screen")
	}
}
