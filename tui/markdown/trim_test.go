package markdown

import "testing"

func TestStripTrailing(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain spaces", "abc   ", "abc"},
		{"spaces inside a line stay", "a  b   ", "a  b"},
		{"styled padding", "\x1b[31mab\x1b[m\x1b[31m \x1b[m\x1b[31m \x1b[m", "\x1b[31mab\x1b[m"},
		{"padding line becomes empty", "\x1b[31m \x1b[m\x1b[31m \x1b[m", ""},
		{"escape-only line becomes empty", "\x1b[38;5;240m\x1b[m", ""},
		{"spaces under a background stay", "\x1b[41m ab \x1b[m  ", "\x1b[41m ab \x1b[m"},
		{"reverse video spaces stay", "\x1b[7m  \x1b[m ", "\x1b[7m  \x1b[m"},
		{"underlined spaces stay", "\x1b[4ma \x1b[m ", "\x1b[4ma \x1b[m"},
		{"background ended by 49", "\x1b[41mx\x1b[49m  ", "\x1b[41mx\x1b[49m"},
		{"colour index 41 is not a background", "\x1b[38;5;41mx\x1b[m\x1b[38;5;41m \x1b[m", "\x1b[38;5;41mx\x1b[m"},
		{"rgb parts are not attributes", "\x1b[38;2;48;7;4mx\x1b[m  ", "\x1b[38;2;48;7;4mx\x1b[m"},
		{"true-colour background", "\x1b[48;2;1;2;3m \x1b[m ", "\x1b[48;2;1;2;3m \x1b[m"},
		{"hyperlink end stays", "\x1b]8;;http://x\alink\x1b]8;;\a   ", "\x1b]8;;http://x\alink\x1b]8;;\a"},
		{"attributes left on get a reset", "\x1b[1mbold   \x1b[m", "\x1b[1mbold\x1b[m"},
		{"attributes left on at the end stay on", "x\x1b[1m  ", "x\x1b[1m"},
		{"no-op pair before text goes", "\x1b[31m\x1b[m\x1b[1mx\x1b[m", "\x1b[1mx\x1b[m"},
		{"no-space character stays", "a\u00a0", "a\u00a0"},
		{"state carries over lines", "\x1b[44mx\n  \x1b[m", "\x1b[44mx\n  \x1b[m"},
		{"reset carries over lines", "\x1b[44mx\x1b[m\n  ", "\x1b[44mx\x1b[m\n"},
		{"each line stripped", "a  \nb \n  ", "a\nb\n"},
		{"same style again merges", "\x1b[31ma\x1b[m\x1b[31m b\x1b[m", "\x1b[31ma b\x1b[m"},
		{"a different style does not", "\x1b[31ma\x1b[m\x1b[32mb\x1b[m", "\x1b[31ma\x1b[m\x1b[32mb\x1b[m"},
		{"two-step style merges", "\x1b[1m\x1b[31ma\x1b[m\x1b[1m\x1b[31mb\x1b[m", "\x1b[1m\x1b[31mab\x1b[m"},
		{"reset inside parameters", "\x1b[1;0;31ma\x1b[m\x1b[1;0;31mb\x1b[m", "\x1b[1;0;31mab\x1b[m"},
		{"added attribute does not merge", "\x1b[31ma\x1b[m\x1b[31m\x1b[1mb\x1b[m", "\x1b[31ma\x1b[m\x1b[31m\x1b[1mb\x1b[m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stripTrailing(tt.in); got != tt.want {
				t.Errorf("stripTrailing(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandTabs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no tabs", "no tabs"},
		{"\tx", "    x"},
		{"ab\tx", "ab  x"},
		{"abcd\tx", "abcd    x"},
		{"é\tx\n\ty", "é   x\n    y"},
	}
	for _, tt := range tests {
		if got := string(expandTabs([]byte(tt.in))); got != tt.want {
			t.Errorf("expandTabs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
