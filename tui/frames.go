package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameInterval is the least time between two frames drawn for streamed
// changes: 25 a second, as smooth as streaming text needs. It is the one
// limit on how often cairn draws a stream; Bubble Tea then writes only the
// lines of a frame that changed.
const frameInterval = 40 * time.Millisecond

// frameClock decides when View draws the screen again; in between, View
// hands Bubble Tea the frame it drew last, which costs nothing. A change
// made by the person (a key, a resize) or by the agent's progress (a
// message, a tool call) is drawn on the next View; a streamed change (a
// delta) is drawn at once only if the last frame is at least interval old,
// and otherwise waits for the frame tick, so a fast stream is drawn once per
// frame however many deltas it brings.
type frameClock struct {
	// interval is frameInterval; zero draws every change at once (tests on
	// a fixed clock).
	interval time.Duration
	view     tea.View  // the last frame
	drawn    time.Time // when it was drawn
	valid    bool      // view shows the model as it is
	pending  bool      // a streamed change waits for the next frame
	ticking  bool      // a frame tick is scheduled
	due      time.Time // when the scheduled tick comes
	draws    int       // frames drawn, for tests
	// screen draws the frames on the terminal; nil leaves them to
	// Bubble Tea (tests, and output that is not a terminal).
	screen *lineScreen
}

// changed marks the frame out of date: the next View draws.
func (f *frameClock) changed() { f.valid = false }

// streamed records a streamed change at now: it is drawn on the next View
// when the last frame is old enough, else on the frame tick.
func (f *frameClock) streamed(now time.Time) {
	if !f.valid || now.Sub(f.drawn) >= f.interval {
		f.valid = false
		return
	}
	f.pending = true
}

// wait is how long from now until the next frame is due. Update asks
// before View draws: when the frame is out of date, View is about to draw
// it now, so the next one is due a whole interval later.
func (f *frameClock) wait(now time.Time) time.Duration {
	if !f.valid {
		return max(f.interval, time.Millisecond)
	}
	return max(f.interval-now.Sub(f.drawn), time.Millisecond)
}

// frame returns the frame to show, drawing it with draw when it is out of
// date.
func (f *frameClock) frame(now time.Time, draw func() tea.View) tea.View {
	if !f.valid {
		f.view = draw()
		f.drawn, f.valid, f.pending = now, true, false
		f.draws++
	}
	return f.view
}
