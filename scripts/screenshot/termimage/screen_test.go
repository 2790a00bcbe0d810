package termimage

import (
	"strings"
	"testing"
)

func TestParseStyles(t *testing.T) {
	red := Color{Mode: ColorIndexed, Index: 1}
	tests := []struct {
		name string
		in   string
		want Style // the style of the cell holding "x"
	}{
		{"plain", "x", Style{}},
		{"bold", "\x1b[1mx", Style{Bold: true}},
		{"faint italic", "\x1b[2;3mx", Style{Faint: true, Italic: true}},
		{"underline and kind", "\x1b[4:3mx", Style{Underline: true}},
		{"underline off by kind", "\x1b[4m\x1b[4:0mx", Style{}},
		{"reverse strike", "\x1b[7;9mx", Style{Reverse: true, Strike: true}},
		{"reset", "\x1b[1;31m\x1b[0mx", Style{}},
		{"empty reset", "\x1b[1;31m\x1b[mx", Style{}},
		{"normal intensity", "\x1b[1;2m\x1b[22mx", Style{}},
		{"base colours", "\x1b[31;42mx", Style{FG: red, BG: Color{Mode: ColorIndexed, Index: 2}}},
		{"bright colours", "\x1b[91;104mx", Style{FG: Color{Mode: ColorIndexed, Index: 9}, BG: Color{Mode: ColorIndexed, Index: 12}}},
		{"256 with semicolons", "\x1b[38;5;208;48;5;17mx", Style{FG: Color{Mode: ColorIndexed, Index: 208}, BG: Color{Mode: ColorIndexed, Index: 17}}},
		{"256 with colons", "\x1b[38:5:208mx", Style{FG: Color{Mode: ColorIndexed, Index: 208}}},
		{"true colour", "\x1b[38;2;10;20;30mx", Style{FG: Color{Mode: ColorRGB, R: 10, G: 20, B: 30}}},
		{"true colour, colons and colour space", "\x1b[48:2::10:20:30mx", Style{BG: Color{Mode: ColorRGB, R: 10, G: 20, B: 30}}},
		{"true colour then bold", "\x1b[38;2;1;2;3;1mx", Style{FG: Color{Mode: ColorRGB, R: 1, G: 2, B: 3}, Bold: true}},
		{"default colours", "\x1b[31;41m\x1b[39;49mx", Style{}},
		{"underline colour skipped", "\x1b[58;2;1;2;3;1mx", Style{Bold: true}},
		{"clamped", "\x1b[38;2;300;20;30mx", Style{FG: Color{Mode: ColorRGB, R: 255, G: 20, B: 30}}},
		{"other escapes dropped", "\x1b]8;;http://x\x1b\\\x1b[Kx", Style{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseString(tt.in, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			c := s.Cells[0][0]
			if c.Text != "x" {
				t.Fatalf("first cell is %q, want x (cells %+v)", c.Text, s.Cells[0])
			}
			if c.Style != tt.want {
				t.Errorf("style %+v, want %+v", c.Style, tt.want)
			}
		})
	}
}

func TestParseLayout(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		cols, rows int
		want       []string // each row's cells, "." for a continuation
	}{
		{"sizes from text", "ab\nabc\n", 0, 0, []string{"ab ", "abc"}},
		{"fixed size pads and cuts", "abcdef\nx", 4, 3, []string{"abcd", "x   ", "    "}},
		{"wide characters take two cells", "日x", 0, 0, []string{"日.x"}},
		{"wide character cut at the edge", "ab日", 3, 1, []string{"ab "}},
		{"combining mark joins its cell", "e\u0301x", 0, 0, []string{"e\u0301x"}},
		{"tab to the next stop", "a\tb", 0, 0, []string{"a       b"}},
		{"escapes take no cells", "\x1b[1ma\x1b[0mb", 0, 0, []string{"ab"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseString(tt.in, tt.cols, tt.rows)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, row := range s.Cells {
				var b strings.Builder
				for _, c := range row {
					if c.Width == 0 {
						b.WriteString(".")
					} else {
						b.WriteString(c.Text)
					}
				}
				got = append(got, b.String())
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("rows %q, want %q", got, tt.want)
			}
			if s.Rows != len(tt.want) {
				t.Errorf("Rows = %d, want %d", s.Rows, len(tt.want))
			}
		})
	}
}

// The style carries from one line to the next, as tmux writes captures.
func TestParseStyleCarriesOver(t *testing.T) {
	s, err := ParseString("\x1b[1;32ma\nb\x1b[0m\nc", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	green := Color{Mode: ColorIndexed, Index: 2}
	if st := s.Cells[1][0].Style; !st.Bold || st.FG != green {
		t.Errorf("second line style %+v, want bold green", st)
	}
	if st := s.Cells[2][0].Style; st != (Style{}) {
		t.Errorf("third line style %+v, want plain", st)
	}
}

func TestThemeColors(t *testing.T) {
	th := DarkTheme
	tests := []struct {
		name   string
		st     Style
		fg, bg uint32
	}{
		{"defaults", Style{}, 0xd4d4d4, 0x1a1b1e},
		{"palette", Style{FG: Color{Mode: ColorIndexed, Index: 1}}, 0xe06c75, 0x1a1b1e},
		{"cube", Style{FG: Color{Mode: ColorIndexed, Index: 196}}, 0xff0000, 0x1a1b1e},
		{"grey ramp", Style{BG: Color{Mode: ColorIndexed, Index: 232}}, 0xd4d4d4, 0x080808},
		{"rgb", Style{FG: Color{Mode: ColorRGB, R: 1, G: 2, B: 3}}, 0x010203, 0x1a1b1e},
		{"reverse", Style{Reverse: true}, 0x1a1b1e, 0xd4d4d4},
		{"hidden", Style{Hidden: true}, 0x1a1b1e, 0x1a1b1e},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fg, bg := th.colors(tt.st)
			if fg != rgba(tt.fg) || bg != rgba(tt.bg) {
				t.Errorf("colors = %v, %v; want %06x, %06x", fg, bg, tt.fg, tt.bg)
			}
		})
	}
}

func TestParseHex(t *testing.T) {
	if c, err := ParseHex("#102030"); err != nil || c != rgba(0x102030) {
		t.Errorf("ParseHex(#102030) = %v, %v", c, err)
	}
	for _, bad := range []string{"", "#12345", "#gggggg", "1234567"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) gave no error", bad)
		}
	}
}
