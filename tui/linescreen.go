package tui

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// lineScreen draws cairn's frames on the terminal itself, line by line:
// a frame's lines are compared with the lines on screen and only those
// that changed are written, so a streamed frame, where a line or two
// changed, costs a string comparison per line and the writing of those
// lines. Bubble Tea's renderer parses every frame's whole text into cells
// and compares every line cell by cell (about 1 ms a frame at 120x40,
// BenchmarkFrameWrite), which was half of cairn's CPU while streaming.
//
// Bubble Tea keeps everything else about the terminal: raw mode, the
// window size, the alternate screen, mouse, paste, focus and keyboard
// modes, the window title, suspend and the hand-back around a program run
// in the terminal. Its View gets blankFrame, which it draws as a blank
// alternate screen once; its writes pass through Output, where the
// screen watches them: the alternate screen cleared (on start, after a
// resize, after a suspend or a program run) means the screen is blank and
// the whole frame is drawn again at once, in the same write; the
// alternate screen left means nothing is drawn until it is back. The
// first frame does not wait for Bubble Tea's first tick: cairn puts the
// alternate screen up itself and draws it as soon as the model has the
// window's size.
//
// Frames are the model's View text: exactly one screen of lines, each
// line complete in itself (its styles open and close on it, as lipgloss
// and glamour draw them). Lines wider than the screen are cut.
type lineScreen struct {
	mu      sync.Mutex
	term    *os.File             // the terminal
	profile colorprofile.Profile // colours are converted to it, as Bubble Tea would

	onAlt         bool     // the alternate screen is up: frames may be drawn
	started       bool     // a frame was drawn
	entered       bool     // cairn entered the alternate screen itself
	clear         bool     // the screen must be cleared before the next drawing
	shown         []string // the lines on screen; nil when the screen is blank
	frame         []string // the latest frame
	width, height int      // the screen the frame is for

	out  bytes.Buffer
	conv colorprofile.Writer
}

// blankFrame is the View content Bubble Tea gets while cairn draws: one
// blank cell, the same every frame, so its renderer finds nothing to do
// but clear the screen when it must. (An empty Content would not do: it
// makes the renderer resize its buffer to no lines and clear the screen
// on every tick.)
const blankFrame = " "

// Every drawing is one synchronized update (the terminal shows it whole),
// with automatic wrap off: a line the terminal measures wider than cairn
// did (an emoji, say) loses its end at the edge instead of running into
// the next row.
const (
	beginDrawing = ansi.SetModeSynchronizedOutput + ansi.ResetModeAutoWrap
	endDrawing   = ansi.SetModeAutoWrap + ansi.ResetModeSynchronizedOutput
)

// newLineScreen draws on term in colour profile p.
func newLineScreen(term *os.File, p colorprofile.Profile) *lineScreen {
	s := &lineScreen{term: term, profile: p}
	s.conv = colorprofile.Writer{Forward: &s.out, Profile: p}
	return s
}

// Output is what Bubble Tea writes to: the terminal, watched (see
// lineScreen). It is the terminal's file for everything but writing, so
// Bubble Tea still finds its size and puts it in raw mode.
func (s *lineScreen) Output() *screenOutput { return &screenOutput{File: s.term, s: s} }

// screenOutput is the terminal as Bubble Tea sees it (see
// lineScreen.Output).
type screenOutput struct {
	*os.File
	s *lineScreen
}

// Write writes Bubble Tea's bytes to the terminal and redraws the frame
// when they cleared the screen.
func (o *screenOutput) Write(p []byte) (int, error) { return o.s.passThrough(p) }

// passThrough writes p, one of Bubble Tea's writes, and follows what it
// did to the alternate screen. A clear and the frame drawn again after it
// go out in one write, as one synchronized update.
func (s *lineScreen) passThrough(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	if s.onAlt && bytes.Contains(p, []byte(ansi.SetModeAltScreenSaveCursor)) {
		// cairn put the alternate screen up for the first frame: entering
		// it again would save the cursor again, over the one to restore
		// on leaving (as xterm does).
		p = bytes.ReplaceAll(p, []byte(ansi.SetModeAltScreenSaveCursor), nil)
	}
	left := bytes.LastIndex(p, []byte(ansi.ResetModeAltScreenSaveCursor))
	cleared := bytes.LastIndex(p, []byte(ansi.EraseEntireScreen))
	if cleared <= left || s.frame == nil {
		if left >= 0 {
			s.onAlt, s.shown = false, nil
		} else if cleared >= 0 {
			s.onAlt, s.shown = true, nil
		}
		if _, err := s.term.Write(p); err != nil {
			return 0, err
		}
		return n, nil
	}
	s.onAlt, s.shown, s.clear = true, nil, false
	s.out.Reset()
	s.out.WriteString(ansi.SetModeSynchronizedOutput)
	s.out.Write(p)
	s.out.WriteString(ansi.ResetModeAutoWrap)
	s.paintLines()
	s.out.WriteString(endDrawing)
	if _, err := s.term.Write(s.out.Bytes()); err != nil {
		s.shown, s.clear = nil, true
		return 0, err
	}
	return n, nil
}

// draw shows frame, the model's View text for a width x height screen:
// at once when the screen is up, else when it next comes up.
func (s *lineScreen) draw(frame string, width, height int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(frame, "\n")
	if len(lines) > height {
		// As Bubble Tea: a frame taller than the screen loses its top.
		lines = lines[len(lines)-height:]
	}
	s.frame = lines
	if width != s.width || height != s.height {
		// What is on screen was cut or wrapped for another size.
		s.width, s.height = width, height
		s.shown, s.clear = nil, true
	}
	s.paint()
}

// paint writes the lines of the frame that differ from the screen's.
// s.mu is held.
func (s *lineScreen) paint() {
	if !s.onAlt {
		if s.started || s.width == 0 || s.height == 0 {
			return
		}
		// The first frame: up at once, rather than on Bubble Tea's
		// first tick, which then clears the screen and has it drawn
		// again (see passThrough).
		s.out.Reset()
		s.out.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.HideCursor)
		s.term.Write(s.out.Bytes())
		s.onAlt, s.entered, s.shown, s.clear = true, true, nil, true
	}
	s.started = true
	s.out.Reset()
	s.out.WriteString(beginDrawing)
	start := s.out.Len()
	s.paintLines()
	if s.out.Len() == start {
		return
	}
	s.out.WriteString(endDrawing)
	// A failed write leaves the screen unknown: the next frame draws it
	// all. Bubble Tea sees the terminal's failure on its own next write.
	if _, err := s.term.Write(s.out.Bytes()); err != nil {
		s.shown, s.clear = nil, true
	}
}

// paintLines adds to s.out what turns the screen into the frame.
func (s *lineScreen) paintLines() {
	if s.clear {
		s.out.WriteString(ansi.CursorHomePosition + ansi.EraseEntireScreen)
		s.clear = false
	}
	for y := range s.height {
		line, old := "", ""
		if y < len(s.frame) {
			line = s.frame[y]
		}
		if y < len(s.shown) {
			old = s.shown[y]
		}
		if line != old {
			s.writeLine(y, line)
		}
	}
	s.shown = s.frame
}

// close leaves the alternate screen if cairn entered it and Bubble Tea
// did not take it over and leave it (a program stopped before its first
// frame); the terminal is as it was.
func (s *lineScreen) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entered && s.onAlt {
		s.term.WriteString(ansi.ResetModeAltScreenSaveCursor + ansi.ShowCursor)
		s.onAlt = false
	}
}

// writeLine writes line as row y (from 0) of the screen, replacing the
// whole row.
func (s *lineScreen) writeLine(y int, line string) {
	s.out.WriteString(ansi.CursorPosition(1, y+1))
	s.out.WriteString(ansi.ResetStyle)
	w := 0
	if line != "" {
		w = ansi.StringWidth(line)
		if w > s.width {
			line, w = ansi.Truncate(line, s.width, ""), s.width
		}
		if s.profile == colorprofile.TrueColor {
			s.out.WriteString(line)
		} else {
			_, _ = s.conv.WriteString(line)
		}
		s.out.WriteString(ansi.ResetStyle)
	}
	if w < s.width {
		// Not when the line fills the row: the cursor then sits on its
		// last cell, which an erase would take.
		s.out.WriteString(ansi.EraseLineRight)
	}
}

// onTerminal gives c the terminal itself as its output when cairn draws
// there: Bubble Tea would hand a program it runs its own output, which is
// the watched terminal, not a file, and the program would write into a
// pipe instead of the terminal.
func (m *Model) onTerminal(c *exec.Cmd) *exec.Cmd {
	if s := m.frames.screen; s != nil && c.Stdout == nil {
		c.Stdout = s.term
	}
	return c
}
