package escape

import (
	"strings"
	"testing"
)

func TestLen(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want int
	}{
		{"empty", "", 0},
		{"plain text", "abc", 0},
		{"escape later", "a\x1b[m", 0},
		{"lone ESC", "\x1b", 1},
		{"SGR", "\x1b[31mred", 5},
		{"SGR reset", "\x1b[m", 3},
		{"CSI with intermediates", "\x1b[2 qx", 5},
		{"CSI private", "\x1b[?25lx", 6},
		{"CSI cut off", "\x1b[12;3", 6},
		{"OSC ended by BEL", "\x1b]0;title\x07x", 10},
		{"OSC ended by ST", "\x1b]8;;http://a\x1b\\link", 15},
		{"OSC cut off", "\x1b]0;tit", 7},
		{"DCS", "\x1bPq#0\x1b\\ok", 7},
		{"APC", "\x1b_Gx\x1b\\", 6},
		{"PM", "\x1b^x\x07", 4},
		{"SOS", "\x1bXx\x07", 4},
		{"charset designation", "\x1b(Bhi", 3},
		{"two-byte escape", "\x1b7x", 2},
		{"keypad mode", "\x1b=x", 2},
		{"ESC ESC", "\x1b\x1b[m", 1},
		{"ESC newline", "\x1b\nx", 1},
		{"ESC intermediate newline", "\x1b(\nx", 2},
		{"ESC then UTF-8", "\x1bé", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Len(tt.s); got != tt.want {
				t.Errorf("Len(%q) = %d, want %d", tt.s, got, tt.want)
			}
		})
	}
}

func FuzzLen(f *testing.F) {
	for _, s := range []string{"", "\x1b", "\x1b[31m", "\x1b]0;t\x07", "\x1b(B", "\x1bP\x1b\\", "a\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Len(s)
		switch {
		case n < 0 || n > len(s):
			t.Fatalf("Len(%q) = %d, out of range", s, n)
		case strings.HasPrefix(s, "\x1b") != (n > 0):
			t.Fatalf("Len(%q) = %d: a sequence must start with ESC and have a length", s, n)
		}
	})
}

// BenchmarkLenPlain is the cost of looking for sequences in text that has
// none, a byte at a time, as the markdown trimmer does.
func BenchmarkLenPlain(b *testing.B) {
	s := strings.Repeat("plain words without escapes ", 64)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for i := 0; i < len(s); i++ {
			n += Len(s[i:])
		}
		if n != 0 {
			b.Fatal(n)
		}
	}
}
