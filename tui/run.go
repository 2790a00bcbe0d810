package tui

import (
	"context"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// frameRate is how many times a second Bubble Tea looks for a new frame
// when it draws them (tests, output that is not a terminal); on a
// terminal cairn draws its frames itself (see lineScreen), and Bubble
// Tea's ticker only writes mode changes (mouse, title) and clears the
// screen after a resize or a hand-back, for cairn to draw it again.
const frameRate = 60

// terminalFrameRate is Bubble Tea's rate while cairn draws the frames: a
// mode change or a clear waits at most 50 ms, and the ticker costs a
// third of what it does at 60.
const terminalFrameRate = 20

// Run shows the TUI on the terminal until the person quits or ctx ends.
// The caller closes the session afterwards. extra options are for tests
// (input, output, window size).
func Run(ctx context.Context, opts Options, extra ...tea.ProgramOption) error {
	m := New(opts)
	// The model's frame clock decides how often a stream is drawn (see
	// frameClock). Where Bubble Tea draws the frames, it writes one only
	// on its own ticker, so its rate bounds how long a key waits for its
	// echo and when the first frame appears: at 60 a second against 30,
	// make bench-tui drew the first frame about 20 ms sooner and echoed a
	// key in 13 ms instead of 30. On a terminal cairn draws each frame as
	// soon as View makes it, and the ticker can be slower.
	fps := frameRate
	if opts.Terminal != nil {
		fps = terminalFrameRate
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(fps)}
	if opts.ColorProfile != colorprofile.Unknown {
		popts = append(popts, tea.WithColorProfile(opts.ColorProfile))
	}
	popts = append(popts, extra...)
	if opts.Terminal != nil {
		// cairn draws the frames (see lineScreen); Bubble Tea writes the
		// rest through the screen, which watches it.
		if s := opts.Preview.handOver(); s != nil {
			m.frames.screen = s
		} else {
			p := opts.ColorProfile
			if p == colorprofile.Unknown {
				p = colorprofile.Detect(opts.Terminal, os.Environ())
			}
			m.frames.screen = newLineScreen(opts.Terminal, p)
		}
		popts = append(popts, tea.WithOutput(m.frames.screen.Output()))
	}
	if opts.Attached {
		// The process's signals are its owner's terminal's.
		popts = append(popts, tea.WithoutSignals())
	}
	p := tea.NewProgram(m, popts...)
	stop := m.Connect(p.Send)
	defer stop()
	if opts.Resize != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case size := <-opts.Resize:
					p.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				case <-done:
					return
				}
			}
		}()
	}
	_, err := p.Run()
	if m.frames.screen != nil {
		m.frames.screen.close()
	}
	if m.sess.State().IsStreaming && !opts.Attached {
		m.sess.Abort()
	}
	if opts.Scrollback != nil && err == nil {
		// Back on the normal screen: the last exchange goes to the
		// terminal's scrollback.
		_, _ = io.WriteString(opts.Scrollback, m.quitScrollback())
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("terminal interface: %w", err)
	}
	return nil
}

// Connect starts delivering the session's events, its questions among
// them, and the changes of its background commands to send (a program's
// Send). stop ends the delivery.
func (m *Model) Connect(send func(tea.Msg)) (stop func()) {
	stopProcesses := m.connectProcesses(send)
	events, unsubscribe := m.sess.Subscribe()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		pumpEvents(events, send, done)
	}()
	return func() {
		stopProcesses()
		close(done)
		unsubscribe()
		<-finished
	}
}
