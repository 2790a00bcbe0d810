package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// Run shows the TUI on the terminal until the person quits or ctx ends.
// The caller closes the session afterwards. extra options are for tests
// (input, output, window size).
func Run(ctx context.Context, opts Options, extra ...tea.ProgramOption) error {
	m := New(opts)
	// The model's frame clock decides how often a stream is drawn (see
	// frameClock). Bubble Tea looks for a new frame 30 times a second and
	// writes the lines that changed; looking 60 times a second would halve
	// a key's wait for its echo, but its ticker wakes the process even when
	// nothing changed, which cost about 0.15 ms of CPU per typed key here.
	popts := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(30)}, extra...)
	p := tea.NewProgram(m, popts...)
	stop := m.Connect(p.Send)
	defer stop()
	_, err := p.Run()
	if m.sess.State().IsStreaming {
		m.sess.Abort()
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("terminal interface: %w", err)
	}
	return nil
}

// Connect starts delivering the session's events, its questions among
// them, to send (a program's Send). stop ends the delivery.
func (m *Model) Connect(send func(tea.Msg)) (stop func()) {
	events, unsubscribe := m.sess.Subscribe()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		pumpEvents(events, send, done)
	}()
	return func() {
		close(done)
		unsubscribe()
		<-finished
	}
}
