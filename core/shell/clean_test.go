package shell

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello\n\tworld\n", "hello\n\tworld\n"},
		{"empty", "", ""},
		{"colours", "\x1b[1;31mred\x1b[0m plain\n", "red plain\n"},
		{"256 and rgb colours", "\x1b[38;5;208mo\x1b[38;2;1;2;3mr\x1b[m", "or"},
		{"title and hyperlink", "\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", "link\n"},
		{"tput sgr0", "\x1b(B\x1b[mok", "ok"},
		{"cursor keys mode and hide", "\x1b[?1h\x1b=\x1b[?25lx\x1b[?25h", "x"},
		{"progress redraws", "get 10%\rget 50%\rget 100%\ndone\n", "get 100%\ndone\n"},
		{"redraw after erase", "hello world\r\x1b[Kbye\n", "bye\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"cr at the end", "a\r", "a"},
		{"cr pairs", "a\r\rb", "b"},
		{"redraw of one line only", "one\ntwo 1\rtwo 2\nthree", "one\ntwo 2\nthree"},
		{"rpc's sample", "a\r\nb\x1b[31m!\x1b[0m\n", "a\nb!\n"},
		{"control characters", "a\x00b\x07c\x08d\x7fe\x0cf", "abcdef"},
		{"C1 controls", "a\u0085b\u009bc", "abc"},
		{"non-ASCII kept", "café ☕ 日本\n", "café ☕ 日本\n"},
		{"invalid bytes", "a\xffb", "a\uFFFDb"},
		{"a run of invalid bytes is one replacement", "a\xff\xfe\xe2\x82b", "a\uFFFDb"},
		{"invalid bytes on both sides of a redraw", "x\xff\r\xffy", "\uFFFDy"},
		{"unfinished escape", "ok\x1b[3", "ok"},
		{"lone ESC", "a\x1b", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{
		"plain\n", "\x1b[31mred\x1b[m", "a\r\nb", "10%\r100%\n", "\x1b]0;t\x07x", "\x1b(B", "a\xff\xfeb", "\u009b1m", "\r\x1b[K",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Clean(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", s, got)
		}
		for _, r := range got {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
				t.Fatalf("Clean(%q) = %q: holds control %U", s, got, r)
			}
		}
		if again := Clean(got); again != got {
			t.Fatalf("Clean is not idempotent: %q, then %q", got, again)
		}
		if !strings.ContainsAny(s, "\x1b\r") && strings.Count(got, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Clean(%q) = %q: lines lost", s, got)
		}
		if len(got) > 3*len(s) { // a lone invalid byte becomes three
			t.Fatalf("Clean(%q) = %q: grew", s, got)
		}
	})
}

func BenchmarkCleanPlain(b *testing.B) {
	s := strings.Repeat("an ordinary line of build output, nothing to clean\n", 1000)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Clean(s)
	}
}

func BenchmarkCleanColoured(b *testing.B) {
	s := strings.Repeat("\x1b[32mok\x1b[0m   package/name \x1b[2m0.123s\x1b[0m\r\n", 1000)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Clean(s)
	}
}

// streamed cleans s in the pieces cuts make and joins what comes out.
func streamed(s string, cuts []int) string {
	var st Stream
	var out strings.Builder
	prev := 0
	for _, c := range cuts {
		if c < prev || c > len(s) {
			continue
		}
		out.WriteString(st.Write([]byte(s[prev:c])))
		prev = c
	}
	out.WriteString(st.Write([]byte(s[prev:])))
	out.WriteString(st.Flush())
	return out.String()
}

func TestStreamHoldsBackCutSequences(t *testing.T) {
	s := "a\x1b[31mred\x1b[0m é\r\n\x1b]8;;http://x\x07link\x1b]8;;\x07 done"
	want := "ared é\r\nlink done"
	for i := 0; i <= len(s); i++ {
		if got := streamed(s, []int{i}); got != want {
			t.Fatalf("cut at %d: %q, want %q", i, got, want)
		}
	}
	var st Stream
	if got := st.Write([]byte("x\x1b[3")); got != "x" {
		t.Errorf("first piece gave %q, want the text before the cut sequence", got)
	}
	if got := st.Write([]byte("1my")); got != "y" {
		t.Errorf("second piece gave %q", got)
	}
}

func FuzzStream(f *testing.F) {
	f.Add("a\x1b[31mred\x1b[0m é\r\nb", 3, 9)
	f.Add("\x1b]0;title\x1b\\x\xe2\x82", 1, 12)
	f.Fuzz(func(t *testing.T, s string, a, b int) {
		if a < 0 || b < 0 {
			return
		}
		if got, want := streamed(s, []int{a, b}), first(clean(s, false, false)); got != want {
			t.Fatalf("streamed %q (cuts %d, %d) = %q, whole = %q", s, a, b, got, want)
		}
	})
}

func first(s string, _ bool) string { return s }
