package bashmode

import (
	"slices"
	"strings"
	"testing"
)

// feed writes input to a new Term in one piece and byte by byte, checks
// both give the same screen, and returns it.
func feed(t *testing.T, cols, height, maxLines int, input string) (Screen, *Term) {
	t.Helper()
	whole := NewTerm(cols, height, maxLines)
	_, _ = whole.Write([]byte(input))
	bytewise := NewTerm(cols, height, maxLines)
	for i := 0; i < len(input); i++ {
		_, _ = bytewise.Write([]byte{input[i]})
	}
	s, b := whole.Snapshot(), bytewise.Snapshot()
	if !slices.Equal(s.Lines, b.Lines) || s.Total != b.Total || s.Dropped != b.Dropped {
		t.Fatalf("byte-by-byte writes differ from one write:\nwhole %q\nbytes %q", s.Lines, b.Lines)
	}
	return s, whole
}

func TestTermRendering(t *testing.T) {
	tests := []struct {
		name  string
		cols  int
		input string
		want  []string
	}{
		{"plain lines", 80, "hello\nworld\n", []string{"hello", "world"}},
		{"crlf as from a pty", 80, "a\r\nb\r\n", []string{"a", "b"}},
		{"colour kept", 80, "\x1b[31mred\x1b[0m plain", []string{"\x1b[31mred\x1b[m plain"}},
		{"colour carries to next line", 80, "\x1b[32mgreen\nstill\x1b[m\nplain",
			[]string{"\x1b[32mgreen\x1b[m", "\x1b[32mstill\x1b[m", "plain"}},
		{"extended colours", 80, "\x1b[1;38;5;208;48;2;1;2;3mx",
			[]string{"\x1b[1;38;5;208;48;2;1;2;3mx\x1b[m"}},
		{"colon colour form", 80, "\x1b[38:2::10:20:30mx\x1b[38:5:9my",
			[]string{"\x1b[38;2;10;20;30mx\x1b[0;38;5;9my\x1b[m"}},
		{"curly underline with colour", 80, "\x1b[4:3;58;5;1mx", []string{"\x1b[4:3;58;5;1mx\x1b[m"}},
		{"bright colours", 80, "\x1b[91;104mx", []string{"\x1b[91;104mx\x1b[m"}},
		{"style changes mid line", 80, "\x1b[31ma\x1b[1mb\x1b[22;39mc",
			[]string{"\x1b[31ma\x1b[0;1;31mb\x1b[mc"}},
		{"empty sgr resets", 80, "\x1b[7ma\x1b[mb", []string{"\x1b[7ma\x1b[mb"}},
		{"truncated sgr ignored", 80, "\x1b[38;5mx", []string{"x"}},
		{"progress bar collapses", 80, "10%\r20%\r30%\n", []string{"30%"}},
		{"carriage return overwrites", 80, "hello\rhi", []string{"hillo"}},
		{"erase to end of line", 80, "hello world\r\x1b[Kbye", []string{"bye"}},
		{"erase to start of line", 80, "hello\x1b[3D\x1b[1K", []string{"   lo"}},
		{"erase whole line", 80, "hello\x1b[2Kx", []string{"     x"}},
		{"backspace", 80, "abc\b\bX", []string{"aXc"}},
		{"backspace at column 0", 80, "\b\bab", []string{"ab"}},
		{"tab", 80, "a\tb\tc", []string{"a       b       c"}},
		{"tab stops at the edge", 10, "a\t\t\tb", []string{"a        b"}},
		{"redraw above with cursor up", 80, "l1\nl2\n\x1b[2A\x1b[Kn1\n\x1b[Kn2\n", []string{"n1", "n2"}},
		{"cursor forward pads", 80, "abc\x1b[5Cd", []string{"abc     d"}},
		{"cursor column", 80, "abcdef\x1b[2GX", []string{"aXcdef"}},
		{"cursor back clamps", 80, "ab\x1b[99DX", []string{"Xb"}},
		{"cursor down stops at last row", 80, "a\nb\x1b[A\x1b[9BX", []string{"a", "bX"}},
		{"next and previous line", 80, "a\nb\nc\x1b[2FX\x1b[EY", []string{"X", "Y", "c"}},
		{"erase below drops rows", 80, "a\nb\nc\x1b[2A\x1b[J\nd", []string{"a", "d"}},
		{"erase display all ignored", 80, "a\x1b[2J\x1b[Hb", []string{"ab"}},
		{"save and restore cursor", 80, "ab\x1b7cd\x1b8X", []string{"abXd"}},
		{"csi save and restore", 80, "ab\x1b[scd\x1b[uX", []string{"abXd"}},
		{"reverse index", 80, "a\nb\x1bMX", []string{"aX", "b"}},
		{"delete characters", 80, "abcdef\x1b[3D\x1b[2P", []string{"abcf"}},
		{"insert blanks", 80, "abcdef\x1b[3D\x1b[2@", []string{"abc  def"}},
		{"erase characters", 80, "abcdef\x1b[3D\x1b[2X", []string{"abc  f"}},
		{"osc title dropped", 80, "\x1b]0;title\x07text", []string{"text"}},
		{"osc hyperlink dropped", 80, "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", []string{"link"}},
		{"dcs dropped", 80, "\x1bPq#0;2;0;0;0\x1b\\ok", []string{"ok"}},
		{"private modes dropped", 80, "\x1b[?25lhi\x1b[?25h\x1b[?2004h", []string{"hi"}},
		{"charset designation dropped", 80, "\x1b(Bhi\x1b)0", []string{"hi"}},
		{"cursor style dropped", 80, "\x1b[2 qhi", []string{"hi"}},
		{"can aborts a sequence", 80, "\x1b[31\x18x", []string{"x"}},
		{"esc restarts a sequence", 80, "\x1b[3\x1b[32mx", []string{"\x1b[32mx\x1b[m"}},
		{"overlong sequence ignored", 80, "\x1b[" + strings.Repeat("1;", 100) + "31mX", []string{"X"}},
		{"controls dropped", 80, "a\x07\x00\x7fb", []string{"ab"}},
		{"wrap at width", 4, "abcdefghij", []string{"abcd", "efgh", "ij"}},
		{"exact width then newline", 4, "abcd\nx", []string{"abcd", "x"}},
		{"carriage return after full row", 4, "abcd\rX", []string{"Xbcd"}},
		{"wide characters", 80, "日本語", []string{"日本語"}},
		{"wide character wraps early", 5, "日本語", []string{"日本", "語"}},
		{"overwriting half a wide character", 80, "日本\r\x1b[Cx", []string{" x本"}},
		{"overwriting the left half", 80, "日本\rx", []string{"x 本"}},
		{"invalid bytes", 80, "a\xffb\xe2\x82c", []string{"a\uFFFDb\uFFFD\uFFFDc"}},
		{"c1 controls dropped", 80, "a\u0085b", []string{"ab"}},
		{"combining mark", 80, "e\u0301!", []string{"e\u0301!"}},
		{"emoji", 80, "ok 🎉 done", []string{"ok 🎉 done"}},
		{"empty rows in the middle kept", 80, "a\n\nb\n\n\n", []string{"a", "", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := feed(t, tt.cols, 24, 100, tt.input)
			if !slices.Equal(s.Lines, tt.want) {
				t.Errorf("lines\n got %q\nwant %q", s.Lines, tt.want)
			}
		})
	}
}

func TestTermCursorStaysOnScreen(t *testing.T) {
	// Height 2: the cursor cannot go above the last two rows.
	s, _ := feed(t, 80, 2, 100, "a\nb\nc\x1b[5Ax")
	if want := []string{"a", "bx", "c"}; !slices.Equal(s.Lines, want) {
		t.Errorf("got %q, want %q", s.Lines, want)
	}
}

func TestTermMaxLines(t *testing.T) {
	tests := []struct {
		name        string
		input       string
		want        []string
		total, drop int
	}{
		{"under the cap", "1\n2\n", []string{"1", "2"}, 2, 0},
		{"trailing newline", "1\n2\n3\n4\n5\n", []string{"3", "4", "5"}, 5, 2},
		{"no trailing newline", "1\n2\n3\n4\n5", []string{"3", "4", "5"}, 5, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := feed(t, 80, 24, 3, tt.input)
			if !slices.Equal(s.Lines, tt.want) || s.Total != tt.total || s.Dropped != tt.drop {
				t.Errorf("got %q total %d dropped %d, want %q total %d dropped %d",
					s.Lines, s.Total, s.Dropped, tt.want, tt.total, tt.drop)
			}
		})
	}
}

func TestTermTail(t *testing.T) {
	_, term := feed(t, 80, 24, 100, "1\n2\n3\n4\n")
	s := term.Tail(2)
	if want := []string{"3", "4"}; !slices.Equal(s.Lines, want) || s.Total != 4 || s.Dropped != 0 {
		t.Errorf("Tail(2) = %q total %d dropped %d", s.Lines, s.Total, s.Dropped)
	}
	if s := term.Tail(10); len(s.Lines) != 4 {
		t.Errorf("Tail(10) has %d lines, want 4", len(s.Lines))
	}
}

func TestTermPlain(t *testing.T) {
	tests := []struct {
		name           string
		cols, maxLines int
		input, want    string
	}{
		{"escapes stripped", 80, 100, "\x1b[1;31merror:\x1b[m bad\n\x1b]0;t\x07done\n", "error: bad\ndone"},
		{"soft wraps joined", 4, 100, "abcdefghij\nxy", "abcdefghij\nxy"},
		{"progress in last state", 80, 100, "10%\r100%\n", "100%"},
		{"partial first line dropped", 4, 3, "abcdefghij\nxy\n", "xy"},
		{"one long line kept whole when all is partial", 2, 2, "abcdefgh", "efgh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, term := feed(t, tt.cols, 24, tt.maxLines, tt.input)
			if got := term.Plain(); got != tt.want {
				t.Errorf("Plain() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTermResize(t *testing.T) {
	term := NewTerm(10, 24, 100)
	_, _ = term.Write([]byte("0123456789"))
	term.Resize(4, 24)
	_, _ = term.Write([]byte("\rab\r\nabcdef"))
	want := []string{"ab23456789", "abcd", "ef"}
	if s := term.Snapshot(); !slices.Equal(s.Lines, want) {
		t.Errorf("got %q, want %q", s.Lines, want)
	}
}

// TestTermSplitUTF8 feeds text at every split point into two writes.
func TestTermSplitUTF8(t *testing.T) {
	input := "héllo 日本 🎉 \x1b[31mé\x1b[0m e\u0301"
	want, _ := feed(t, 80, 24, 100, input)
	for i := 1; i < len(input); i++ {
		term := NewTerm(80, 24, 100)
		_, _ = term.Write([]byte(input[:i]))
		_, _ = term.Write([]byte(input[i:]))
		if got := term.Snapshot(); !slices.Equal(got.Lines, want.Lines) {
			t.Fatalf("split at %d: got %q, want %q", i, got.Lines, want.Lines)
		}
	}
}

// TestTermPaletteBounded rewrites one line with ever new colours, as an
// animated progress bar might: the row's palette must not grow with it.
func TestTermPaletteBounded(t *testing.T) {
	term := NewTerm(80, 24, 100)
	var b strings.Builder
	for i := range 10000 {
		b.Reset()
		b.WriteString("\r\x1b[38;2;")
		b.WriteString(strings.Repeat("1", 1+i%3))
		b.WriteString(";")
		b.WriteString(string(rune('0' + i%10)))
		b.WriteString(";0mstep\x1b[m")
		_, _ = term.Write([]byte(b.String()))
	}
	rw := term.cur()
	if n := len(rw.palette); n > 2*len(rw.cells)+17 {
		t.Errorf("palette has %d entries for %d cells", n, len(rw.cells))
	}
	if s := term.Snapshot(); len(s.Lines) != 1 || !strings.HasSuffix(s.Lines[0], "step\x1b[m") {
		t.Errorf("got %q", s.Lines)
	}
}
