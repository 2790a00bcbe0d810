package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// testTerm is as much of a terminal as lineScreen and Bubble Tea's
// renderer use on an alternate screen of ASCII text: cursor position,
// erase in line and in display, text; everything else is read and
// ignored. Leaving the alternate screen keeps a copy of it in left.
type testTerm struct {
	w, h   int
	x, y   int
	rows   [][]byte
	left   []string // the screen when the alternate screen was left
	clears int      // erases of the whole screen
}

func newTestTerm(w, h int) *testTerm {
	t := &testTerm{w: w, h: h}
	t.erase()
	return t
}

func (t *testTerm) erase() {
	t.rows = make([][]byte, t.h)
	for i := range t.rows {
		t.rows[i] = []byte(strings.Repeat(" ", t.w))
	}
}

// feed plays out to the screen.
func (t *testTerm) feed(out []byte) {
	p := ansi.NewParser()
	var state byte
	for len(out) > 0 {
		seq, width, n, next := ansi.DecodeSequence(out, state, p)
		out, state = out[n:], next
		if width > 0 {
			if t.x < t.w && t.y < t.h {
				t.rows[t.y][t.x] = seq[0]
			}
			t.x = min(t.x+width, t.w)
			continue
		}
		if !ansi.HasCsiPrefix(seq) {
			continue
		}
		cmd := ansi.Cmd(p.Command())
		param := func(i, def int) int { v, _, _ := p.Params().Param(i, def); return v }
		switch {
		case cmd.Prefix() == '?' && cmd.Final() == 'l' && param(0, 0) == 1049:
			t.left = t.screen()
		case cmd.Prefix() != 0:
		case cmd.Final() == 'H':
			t.y, t.x = param(0, 1)-1, param(1, 1)-1
		case cmd.Final() == 'K' && param(0, 0) == 0:
			for x := t.x; x < t.w; x++ {
				t.rows[t.y][x] = ' '
			}
		case cmd.Final() == 'J' && param(0, 0) == 2:
			t.erase()
			t.clears++
		}
	}
}

// screen is the text on screen, trailing spaces cut.
func (t *testTerm) screen() []string {
	out := make([]string, t.h)
	for i, r := range t.rows {
		out[i] = strings.TrimRight(string(r), " ")
	}
	return out
}

// terminalFile is a file standing in for the terminal.
func terminalFile(t *testing.T) *os.File {
	f, err := os.Create(filepath.Join(t.TempDir(), "terminal"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// written is what was written to f since offset *from, which moves on.
func written(t *testing.T, f *os.File, from *int64) []byte {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	out := b[*from:]
	*from = int64(len(b))
	return out
}

func frameOf(lines ...string) string { return strings.Join(lines, "\n") }

func TestLineScreenWritesOnlyChangedLines(t *testing.T) {
	f := terminalFile(t)
	s := newLineScreen(f, colorprofile.TrueColor)
	term := newTestTerm(20, 4)
	var at int64

	// The first frame puts the alternate screen up and is drawn at once.
	s.draw(frameOf("one", "two", "three", "four"), 20, 4)
	out := written(t, f, &at)
	if !strings.HasPrefix(string(out), ansi.SetModeAltScreenSaveCursor) {
		t.Fatalf("the first frame was drawn without the alternate screen: %q", out)
	}
	term.feed(out)
	if got, want := term.screen(), []string{"one", "two", "three", "four"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the first frame shows %q, want %q", got, want)
	}
	// Bubble Tea's first frame enters the alternate screen, which is
	// left out (it would save the cursor again), and clears it: the frame
	// is drawn again in the same write.
	if _, err := s.Output().Write([]byte(ansi.SetModeAltScreenSaveCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen)); err != nil {
		t.Fatal(err)
	}
	out = written(t, f, &at)
	if strings.Contains(string(out), ansi.SetModeAltScreenSaveCursor) {
		t.Fatalf("the alternate screen was entered twice: %q", out)
	}
	term.feed(out)
	if got, want := term.screen(), []string{"one", "two", "three", "four"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after the clear the screen shows %q, want %q", got, want)
	}

	// One line changes: one line is written.
	s.draw(frameOf("one", "two!", "three", "four"), 20, 4)
	out = written(t, f, &at)
	if n := strings.Count(string(out), "H"); n != 1 || !strings.Contains(string(out), ansi.CursorPosition(1, 2)) {
		t.Fatalf("a frame with row 2 changed wrote %q, want row 2 alone", out)
	}
	term.feed(out)

	// The same frame again writes nothing.
	s.draw(frameOf("one", "two!", "three", "four"), 20, 4)
	if out := written(t, f, &at); len(out) != 0 {
		t.Fatalf("an unchanged frame wrote %q", out)
	}

	// A shorter line leaves nothing of the longer one; a styled line
	// keeps its text; a line past the width is cut.
	s.draw(frameOf("one", "tw", "\x1b[1;48;5;236mbold\x1b[m", strings.Repeat("x", 30)), 20, 4)
	term.feed(written(t, f, &at))
	if got, want := term.screen(), []string{"one", "tw", "bold", strings.Repeat("x", 20)}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the screen shows %q, want %q", got, want)
	}

	// A new size redraws everything, after a clear.
	term = newTestTerm(10, 3)
	s.draw(frameOf("a", "b", "c"), 10, 3)
	out = written(t, f, &at)
	if !strings.Contains(string(out), ansi.EraseEntireScreen) {
		t.Fatalf("a resize drew %q without clearing first", out)
	}
	term.feed(out)
	if got, want := term.screen(), []string{"a", "b", "c"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after the resize the screen shows %q, want %q", got, want)
	}

	// Off the alternate screen (a program runs, cairn is suspended),
	// nothing is drawn; back on it, the whole frame is.
	if _, err := s.Output().Write([]byte(ansi.ResetModeAltScreenSaveCursor)); err != nil {
		t.Fatal(err)
	}
	written(t, f, &at)
	s.draw(frameOf("a", "b", "d"), 10, 3)
	if out := written(t, f, &at); len(out) != 0 {
		t.Fatalf("drew off the alternate screen: %q", out)
	}
	if _, err := s.Output().Write([]byte(ansi.SetModeAltScreenSaveCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen)); err != nil {
		t.Fatal(err)
	}
	term.feed(written(t, f, &at))
	if got, want := term.screen(), []string{"a", "b", "d"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("back on the alternate screen it shows %q, want %q", got, want)
	}
}

func TestLineScreenConvertsColours(t *testing.T) {
	f := terminalFile(t)
	s := newLineScreen(f, colorprofile.ANSI256)
	var at int64
	if _, err := s.Output().Write([]byte(ansi.EraseEntireScreen)); err != nil {
		t.Fatal(err)
	}
	written(t, f, &at)
	s.draw("\x1b[38;2;255;0;0mred\x1b[m", 10, 1)
	out := string(written(t, f, &at))
	if strings.Contains(out, "38;2;") || !strings.Contains(out, "38;5;") {
		t.Fatalf("a true-colour line on a 256-colour terminal was written %q", out)
	}
}

// screenModel hands its frames to a lineScreen as cairn's Model does.
type screenModel struct {
	s      *lineScreen
	frames []string
	i      int
}

type nextFrameMsg struct{}

func (m *screenModel) Init() tea.Cmd { return func() tea.Msg { return nextFrameMsg{} } }

func (m *screenModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(nextFrameMsg); ok {
		if m.i == len(m.frames)-1 {
			return m, tea.Quit
		}
		m.i++
		// A frame every 5 ms, so that Bubble Tea's ticker looks at the
		// view between frames many times.
		return m, tea.Tick(5*time.Millisecond, func(time.Time) tea.Msg { return nextFrameMsg{} })
	}
	return m, nil
}

func (m *screenModel) View() tea.View {
	m.s.draw(m.frames[m.i], 20, 3)
	v := tea.NewView(blankFrame)
	v.AltScreen = true
	return v
}

// TestLineScreenUnderBubbleTea runs a program whose frames a lineScreen
// draws: the screen Bubble Tea leaves at the end shows the last frame, the
// alternate screen was entered once, and the screen was cleared twice,
// for the first frame and by Bubble Tea's first, never on its ticks.
func TestLineScreenUnderBubbleTea(t *testing.T) {
	f := terminalFile(t)
	s := newLineScreen(f, colorprofile.TrueColor)
	var frames []string
	for i := range 30 {
		frames = append(frames, frameOf("stream", fmt.Sprintf("tok %d", i), "footer"))
	}
	p := tea.NewProgram(&screenModel{s: s, frames: frames}, tea.WithOutput(s.Output()), tea.WithInput(nil),
		tea.WithWindowSize(20, 3), tea.WithColorProfile(colorprofile.TrueColor), tea.WithFPS(120))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	term := newTestTerm(20, 3)
	var at int64
	out := written(t, f, &at)
	term.feed(out)
	if got, want := term.left, []string{"stream", "tok 29", "footer"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Bubble Tea left a screen showing %q, want %q", got, want)
	}
	if term.clears != 2 {
		t.Fatalf("the screen was cleared %d times, want twice", term.clears)
	}
	if n := strings.Count(string(out), ansi.SetModeAltScreenSaveCursor); n != 1 {
		t.Fatalf("the alternate screen was entered %d times, want once", n)
	}
}

// TestLineScreenClose leaves the alternate screen cairn put up when Bubble
// Tea never took it over (stopped before its first frame), and leaves
// alone one Bubble Tea left.
func TestLineScreenClose(t *testing.T) {
	f := terminalFile(t)
	s := newLineScreen(f, colorprofile.TrueColor)
	var at int64
	s.draw("frame", 10, 1)
	written(t, f, &at)
	s.close()
	if out := string(written(t, f, &at)); !strings.Contains(out, ansi.ResetModeAltScreenSaveCursor) || !strings.Contains(out, ansi.ShowCursor) {
		t.Fatalf("closing before Bubble Tea's first frame wrote %q", out)
	}

	f = terminalFile(t)
	s = newLineScreen(f, colorprofile.TrueColor)
	at = 0
	s.draw("frame", 10, 1)
	if _, err := s.Output().Write([]byte(ansi.EraseEntireScreen + ansi.ResetModeAltScreenSaveCursor)); err != nil {
		t.Fatal(err)
	}
	written(t, f, &at)
	s.close()
	if out := written(t, f, &at); len(out) != 0 {
		t.Fatalf("closing after Bubble Tea left the alternate screen wrote %q", out)
	}
}
