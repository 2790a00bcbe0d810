package tui

import (
	"github.com/cairn-dev/cairn/tui/markdown"
)

// forget implements forgetter: a finished answer off screen drops its
// markdown streams (its text and the drawing each keeps) and its kept
// lines; drawing it again starts from the message. A streaming answer
// keeps them, so that its next frame costs only what is new.
func (a *assistantItem) forget() {
	if a.streaming {
		return
	}
	a.streams = map[int]*markdown.Stream{}
	a.drawn = answerLines{}
	a.fed = fedText{}
}
