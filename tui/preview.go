package tui

import (
	"errors"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// A Preview is the last screen of a session being resumed, drawn from the
// end of its file (session.ReadTail) while the whole file is read and the
// session built: a large session shows where it left off at once. It is
// drawn by the interface's own drawing, on the screen Run then takes over
// (Options.Preview), so the first real frame changes only what differs
// (the footer's totals, say). Until then the terminal does not echo what is
// typed; the keys wait in its input queue and reach the editor when the
// interface starts, and ctrl+c still stops cairn. Nothing is lost: the
// preview only draws.
type Preview struct {
	mu      sync.Mutex
	screen  *lineScreen
	restore func() // gives the input its mode back; nil once done
}

// PreviewOptions is what a Preview draws: the end of a session, read by
// Read with at most rows messages (a screen holds no more), on the
// terminal (output and input) in its colour profile (zero detects it),
// with Options' theme, working directory and version.
type PreviewOptions struct {
	Terminal *os.File
	Input    *os.File
	Profile  colorprofile.Profile
	Options  Options
	Read     func(rows int) ([]core.Message, error)
}

// ShowPreview draws the end of a session as the interface would show it,
// with an empty editor; the footer says the session is being read, and
// names the model of the last answer. Close (or Run with
// Options.Preview) puts the terminal back. It fails, drawing nothing,
// when the terminal's size is unknown or Read gives no messages.
func ShowPreview(po PreviewOptions) (*Preview, error) {
	if po.Terminal == nil || po.Input == nil || po.Read == nil {
		return nil, errors.New("tui: a preview needs the terminal's output and input, and the session's end")
	}
	w, h, err := term.GetSize(po.Terminal.Fd())
	if err != nil || w <= 0 || h <= 0 {
		return nil, errors.New("tui: the terminal's size is unknown")
	}
	msgs, err := po.Read(h)
	if err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		return nil, errors.New("tui: the session's end holds no messages")
	}
	sess, err := agent.New(agent.Config{Model: lastModel(msgs), History: msgs,
		Open: func(core.Model) (agent.Connection, error) {
			return agent.Connection{}, errors.New("a preview sends nothing")
		}})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	opts := po.Options
	opts.Session, opts.Terminal, opts.Approvals = sess, nil, nil
	m := New(opts)
	m.foot.reading = true
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	p := po.Profile
	if p == colorprofile.Unknown {
		p = DetectColorProfile(po.Terminal, os.Getenv)
	}
	// Keys typed from here on wait, unechoed, for the interface.
	restore, err := quietInput(po.Input)
	if err != nil {
		return nil, err
	}
	pv := &Preview{screen: newLineScreen(po.Terminal, p), restore: restore}
	pv.screen.draw(solidBackgrounds(m.render()), w, h)
	return pv, nil
}

// lastModel is the model of the last answer among msgs, for the footer.
func lastModel(msgs []core.Message) core.Model {
	for i := len(msgs) - 1; i >= 0; i-- {
		if a, ok := msgs[i].(*core.AssistantMessage); ok {
			return core.Model{API: a.API, Provider: a.Provider, ID: a.Model, Name: a.Model}
		}
	}
	return core.Model{}
}

// handOver gives the input's mode back and the screen to Run; nil for a
// nil or closed Preview.
func (pv *Preview) handOver() *lineScreen {
	if pv == nil {
		return nil
	}
	pv.mu.Lock()
	defer pv.mu.Unlock()
	pv.restoreLocked()
	s := pv.screen
	pv.screen = nil
	return s
}

func (pv *Preview) restoreLocked() {
	if pv.restore != nil {
		pv.restore()
		pv.restore = nil
	}
}

// Close leaves the preview's screen and gives the input its mode back,
// for a start that fails before the interface runs. After Run took the
// preview over it does nothing. A nil Preview may be closed.
func (pv *Preview) Close() {
	if pv == nil {
		return
	}
	pv.mu.Lock()
	defer pv.mu.Unlock()
	pv.restoreLocked()
	if pv.screen != nil {
		pv.screen.close()
		pv.screen = nil
	}
}
