package main

import (
	"fmt"
	"io"
	"time"
)

// spinnerInterval is how often the print-mode spinner redraws.
const spinnerInterval = 100 * time.Millisecond

// spinnerFrames are the spinner's frames, one a redraw.
var spinnerFrames = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

// spinner shows, on a terminal's stderr, that print mode is waiting for the
// model: one line, a frame, what the model is doing and the time waited
// ("⠙ thinking… 2.4s", then "⠹ writing… 3.1s" while an answer's text is
// held until it ends), redrawn in place on each tick and erased before anything else is
// written. It is owned by print mode's event loop, which calls every
// method; it starts no goroutine.
type spinner struct {
	w     io.Writer
	now   func() time.Time
	since time.Time // when the wait began; zero when not waiting
	doing string    // "thinking" or "writing"
	frame int
	shown bool // a spinner line is on the screen
}

// begin starts a wait (a turn asked the model), unless one is under way.
func (s *spinner) begin() {
	if s.since.IsZero() {
		s.since, s.frame, s.doing = s.now(), 0, "thinking"
	}
}

// writing says the model has started an answer's text; a wait not under
// way is not started by it.
func (s *spinner) writing() {
	if !s.since.IsZero() {
		s.doing = "writing"
	}
}

// tick redraws the line while waiting.
func (s *spinner) tick() {
	if s.since.IsZero() {
		return
	}
	elapsed := s.now().Sub(s.since)
	fmt.Fprintf(s.w, "\r\x1b[K%c %s… %.1fs", spinnerFrames[s.frame%len(spinnerFrames)], s.doing, elapsed.Seconds())
	s.frame++
	s.shown = true
}

// end stops waiting and erases the line.
func (s *spinner) end() {
	s.since = time.Time{}
	s.clear()
}

// clear erases the line, if shown, so something else can be written; a
// wait still under way is drawn again on the next tick.
func (s *spinner) clear() {
	if s.shown {
		io.WriteString(s.w, "\r\x1b[K")
		s.shown = false
	}
}
