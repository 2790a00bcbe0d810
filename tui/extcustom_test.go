package tui

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// fakeComponent records what the TUI sends a component.
type fakeComponent struct {
	mu        sync.Mutex
	inputs    []string
	sizes     [][2]int
	dismissed bool
}

func (f *fakeComponent) Input(data string) {
	f.mu.Lock()
	f.inputs = append(f.inputs, data)
	f.mu.Unlock()
}
func (f *fakeComponent) Resize(w, h int) {
	f.mu.Lock()
	f.sizes = append(f.sizes, [2]int{w, h})
	f.mu.Unlock()
}
func (f *fakeComponent) Dismiss() { f.mu.Lock(); f.dismissed = true; f.mu.Unlock() }

// TestComponentInline: an inline component takes the editor's place and
// every key, Escape included; ctrl+c dismisses it; a resize is passed on;
// once closed the editor is back.
func TestComponentInline(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f := &fakeComponent{}
	r.send(eventsMsg{
		core.ComponentShown{ID: "pi/1", Extension: "pi", Handle: f},
		core.ComponentRendered{ID: "pi/1", Lines: []string{"Pick one:", "\x1b[7m> Red\x1b[0m", "  Green\x1b]0;title\x07"}},
	})
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	plain := ansi.Strip(frame)
	if !strings.Contains(plain, "> Red") || !strings.Contains(plain, "ctrl+c closes") || strings.Contains(frame, "title\x07") {
		t.Errorf("component not drawn, or its title escape kept:\n%s", plain)
	}
	r.send(tea.KeyPressMsg{Code: tea.KeyDown})
	r.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	r.send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	r.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	r.send(tea.PasteMsg{Content: "hi"})
	r.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	f.mu.Lock()
	inputs, sizes := f.inputs, f.sizes
	f.mu.Unlock()
	want := []string{"\x1b[B", "\x1b", "q", "\r", "\x1b[200~hi\x1b[201~"}
	if strings.Join(inputs, "|") != strings.Join(want, "|") {
		t.Errorf("inputs %q, want %q", inputs, want)
	}
	if len(sizes) != 2 || sizes[0] != [2]int{80, 24} || sizes[1] != [2]int{60, 20} {
		t.Errorf("sizes %v", sizes)
	}
	if r.m.ed.Value() != "" {
		t.Errorf("the editor took keys: %q", r.m.ed.Value())
	}
	r.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !f.dismissed {
		t.Error("ctrl+c did not dismiss the component")
	}
	r.send(eventsMsg{core.ComponentClosed{ID: "pi/1"}})
	r.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if r.m.ed.Value() != "x" || strings.Contains(ansi.Strip(r.m.render()), "> Red") {
		t.Errorf("the editor is not back: %q", r.m.ed.Value())
	}
}

// TestComponentOverlay: an overlay is drawn over the screen at its row
// and column, the rest of the screen kept around it.
func TestComponentOverlay(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	f := &fakeComponent{}
	r.send(eventsMsg{
		core.ComponentShown{ID: "pi/2", Extension: "pi", Overlay: true, Handle: f},
		core.ComponentRendered{ID: "pi/2", Lines: []string{"+------+", "| OVER |", "+------+"}, Row: 3, Col: 10},
	})
	screen := r.m.overlayComponents(r.m.render())
	lines := strings.Split(ansi.Strip(screen), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d rows", len(lines))
	}
	if got := lines[4]; !strings.HasPrefix(got[10:], "| OVER |") {
		t.Errorf("row 4 = %q", got)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("row wider than the screen: %q", l)
		}
	}
	if !strings.Contains(ansi.Strip(r.m.render()), ">") {
		t.Error("an overlay hid the editor")
	}
}

// componentLine keeps colours, drops every other escape, shows control
// characters visibly and fits the width.
func FuzzComponentLine(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred\x1b[0m", "\x1b]0;t\x07x", "\x1b_pi:c\x07cursor", "a\tb\x00c", "宽字符宽字符", "\x1b[2J\x1b[H", "\x1b"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = max(0, min(w, 200))
		out := componentLine(s, w)
		if ansi.StringWidth(out) > w {
			t.Errorf("width %d > %d: %q", ansi.StringWidth(out), w, out)
		}
		for rest := out; rest != ""; {
			i := strings.IndexByte(rest, escape.ESC)
			if i < 0 {
				break
			}
			n := max(escape.Len(rest[i:]), 1)
			if !isSGR(rest[i : i+n]) {
				t.Errorf("escape %q kept in %q", rest[i:i+n], out)
			}
			rest = rest[i+n:]
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Errorf("invalid UTF-8 out of valid: %q", out)
		}
	})
}
