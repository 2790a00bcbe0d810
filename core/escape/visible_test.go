package escape

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	tests := []struct {
		name, in, one, lines string
	}{
		{"plain", "git status", "git status", "git status"},
		{"unicode", "héllo 世界", "héllo 世界", "héllo 世界"},
		{"conceal the rest", "git status\x1b[8m; rm -rf ~", `git status\x1b[8m; rm -rf ~`, `git status\x1b[8m; rm -rf ~`},
		{"erase and rewrite the line", "rm -rf ~\x1b[2K\rgit status", `rm -rf ~\x1b[2K\rgit status`, `rm -rf ~\x1b[2K\rgit status`},
		{"carriage return alone", "evil\rgood", `evil\rgood`, `evil\rgood`},
		{"CRLF line ending", "a\r\nb\r", `a\r\nb\r`, "a\r\nb\\r"},
		{"newline", "a\nb", `a\nb`, "a\nb"},
		{"tab", "a\tb", `a\tb`, "a\tb"},
		{"backspace", "rm\b\bls", `rm\x08\x08ls`, `rm\x08\x08ls`},
		{"bell and NUL", "a\x07\x00", `a\x07\x00`, `a\x07\x00`},
		{"delete", "a\x7f", `a\x7f`, `a\x7f`},
		{"C1 control (8-bit CSI)", "a\u009b31m", `a\u009b31m`, `a\u009b31m`},
		{"right-to-left override", "ls \u202etxt.exe", `ls \u202etxt.exe`, `ls \u202etxt.exe`},
		{"isolate", "a\u2066b\u2069", `a\u2066b\u2069`, `a\u2066b\u2069`},
		{"invalid UTF-8", "a\xffb", `a\xffb`, `a\xffb`},
		{"OSC title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, `\x1b]0;pwned\x07`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Visible(tt.in); got != tt.one {
				t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.one)
			}
			if got := VisibleLines(tt.in); got != tt.lines {
				t.Errorf("VisibleLines(%q) = %q, want %q", tt.in, got, tt.lines)
			}
		})
	}
}

func FuzzVisible(f *testing.F) {
	for _, s := range []string{"", "git status", "\x1b[8mx", "a\r\nb", "\u202e", "\xff", "\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			got := visible(s, lines)
			if !utf8.ValidString(got) {
				t.Fatalf("visible(%q, %v) = %q: invalid UTF-8", s, lines, got)
			}
			for i, r := range got {
				if hidden(r, lines) && !(lines && crlf(got, i)) {
					t.Fatalf("visible(%q, %v) = %q still holds %U", s, lines, got, r)
				}
			}
			// Nothing is dropped: the printable text is there, in order.
			rest := got
			for i, r := range s {
				if r == utf8.RuneError || hidden(r, lines) && !(lines && crlf(s, i)) {
					continue
				}
				i := strings.IndexRune(rest, r)
				if i < 0 {
					t.Fatalf("visible(%q, %v) = %q lost %q", s, lines, got, r)
				}
				rest = rest[i+utf8.RuneLen(r):]
			}
			if firstHidden(s, lines) < 0 && got != s {
				t.Fatalf("visible(%q, %v) = %q changed text with nothing to escape", s, lines, got)
			}
		}
	})
}
