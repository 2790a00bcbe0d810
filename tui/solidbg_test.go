package tui

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

func TestSolidBackgrounds(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain  text", "plain  text"},
		{"\x1b[31mred  text\x1b[m", "\x1b[31mred  text\x1b[m"},
		{"\x1b[48;5;235m box  \x1b[m  ", "\x1b[48;5;235m\x1b[8m \x1b[28mbox\x1b[8m  \x1b[28m\x1b[m  "},
		{"\x1b[48;2;1;2;3mA B\x1b[49m C", "\x1b[48;2;1;2;3mA\x1b[8m \x1b[28mB\x1b[49m C"},
		{"\x1b[48:5:236mA B\x1b[0m C", "\x1b[48:5:236mA\x1b[8m \x1b[28mB\x1b[0m C"},
		{"\x1b[38;5;41mA B", "\x1b[38;5;41mA B"}, // 41 is the colour, not a background
		{"\x1b[38;2;40;41;42mA B", "\x1b[38;2;40;41;42mA B"},
		{"\x1b[44mA B", "\x1b[44mA\x1b[8m \x1b[28mB"},
		{"\x1b[104mA B", "\x1b[104mA\x1b[8m \x1b[28mB"},
		{"\x1b[44;8mA B\x1b[28m C", "\x1b[44;8mA B\x1b[28m\x1b[8m \x1b[28mC"},
		{"\x1b[44mA\nB C\x1b[m", "\x1b[44mA\nB\x1b[8m \x1b[28mC\x1b[m"},
		{"\x1b[44m\x1b]8;;http://x y\x07link\x1b]8;;\x07 x", "\x1b[44m\x1b]8;;http://x y\x07link\x1b]8;;\x07\x1b[8m \x1b[28mx"},
		{"\x1b[44m\x1b[2K a", "\x1b[44m\x1b[2K\x1b[8m \x1b[28ma"},
		{"\x1b[40;m a", "\x1b[40;m a"}, // an empty field is a reset
		{"\x1b[48;5;1;49m a", "\x1b[48;5;1;49m a"},
		{"\x1b[48:5:1;4m a", "\x1b[48:5:1;4m\x1b[8m \x1b[28ma"},
	}
	for _, tt := range tests {
		if got := solidBackgrounds(tt.in); got != tt.want {
			t.Errorf("solidBackgrounds(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// rendered is what Bubble Tea's renderer sends a tmux-256color terminal
// to draw frame on a screen of width x height, from a blank screen.
func rendered(frame string, width, height int) string {
	var out bytes.Buffer
	scr := uv.NewTerminalRenderer(&out, []string{"TERM=tmux-256color"})
	scr.SetColorProfile(colorprofile.ANSI256)
	scr.SetFullscreen(true)
	scr.Resize(width, height)
	buf := uv.NewScreenBuffer(width, height)
	uv.NewStyledString(frame).Draw(buf, uv.Rect(0, 0, width, height))
	scr.Render(buf.RenderBuffer)
	_ = scr.Flush()
	return out.String()
}

// erasesOnBackground returns the first erase (EL, ECH, ED) the terminal
// gets while the pen has a background colour: on a terminal without bce it
// leaves the default background behind, and tmux's capture-pane (every
// copy of the pane) drops the erased cells.
func erasesOnBackground(out string) string {
	var bg, concealed bool
	for i := 0; i < len(out); {
		if out[i] != 0x1b {
			i++
			continue
		}
		n := escapeLen(out[i:])
		seq := out[i : i+n]
		if n > 2 && seq[1] == '[' {
			switch seq[n-1] {
			case 'm':
				bg, concealed = applySGR(seq[2:n-1], bg, concealed)
			case 'K', 'X', 'J':
				if bg {
					return seq
				}
			}
		}
		i += n
	}
	return ""
}

// TestBoxBackgroundsNeedNoBCE draws the approval screen (a tool box on its
// background, the message above it) as the renderer sends it to tmux: no
// background is left to an erase. Before solidBackgrounds the box's rows
// ended in EL and ECH with the box's colour set, which tmux's capture-pane,
// GNU screen and other terminals without bce drew ragged.
func TestBoxBackgroundsNeedNoBCE(t *testing.T) {
	r := newRig(t, rigOptions{})
	frame := r.frame(80, 30, "", approvalScreen(r)...)
	if !strings.Contains(frame, "\x1b[48;") {
		t.Fatal("the approval screen has no background to test with")
	}
	if seq := erasesOnBackground(rendered(solidBackgrounds(frame), 80, 30)); seq != "" {
		t.Errorf("the renderer erases with a background colour set (%q): terminals without bce draw the box ragged", seq)
	}
	if ansi.Strip(solidBackgrounds(frame)) != ansi.Strip(frame) {
		t.Error("solidBackgrounds changed the text of the frame")
	}
}

// TestDrawViewHasSolidBackgrounds: the frame Bubble Tea gets is the one
// with its backgrounds written out.
func TestDrawViewHasSolidBackgrounds(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.frame(80, 30, "", approvalScreen(r)...)
	v := r.m.drawView()
	if seq := erasesOnBackground(rendered(v.Content, 80, 30)); seq != "" {
		t.Errorf("the drawn view leaves a background to an erase (%q)", seq)
	}
}

// FuzzSolidBackgrounds: the pass never changes the text, never adds cells,
// and running it twice changes nothing more.
func FuzzSolidBackgrounds(f *testing.F) {
	for _, s := range []string{"\x1b[48;5;235m box  \x1b[m  ", "\x1b[44;8mA B\x1b[28m C", "\x1b]8;;u\x07 \x1b]8;;\x07", "\x1b[48:2::1:2:3m  \x1b", "\x1b[48;5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// A frame is valid UTF-8 (lipgloss draws it); an escape put
			// after a broken sequence changes how a parser resyncs.
			t.Skip()
		}
		once := solidBackgrounds(s)
		if ansi.Strip(once) != ansi.Strip(s) {
			t.Fatalf("text changed: %q -> %q", s, once)
		}
		if twice := solidBackgrounds(once); twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, once, twice)
		}
	})
}

// BenchmarkSolidBackgrounds is the pass's cost on a full 120x40 frame with
// tool boxes (the tools screen, expanded), drawn on every frame.
func BenchmarkSolidBackgrounds(b *testing.B) {
	r := newRig(b, rigOptions{})
	frame := r.frame(120, 40, "", append(toolScreen(r), key("ctrl+o"))...)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		_ = solidBackgrounds(frame)
	}
}
