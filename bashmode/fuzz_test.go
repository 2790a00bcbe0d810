package bashmode

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzScreen feeds arbitrary output to the model in two writes: it must
// not panic, must show the same screen as one write, keep to its line cap
// and render valid UTF-8.
func FuzzScreen(f *testing.F) {
	for _, rec := range recordings {
		f.Add([]byte(rec.input), uint8(rec.cols), uint16(len(rec.input)/2))
	}
	f.Add([]byte("日本\r\x1b[C\x1b[2@x\x1b[P\xe2\x82"), uint8(3), uint16(4))
	f.Add([]byte("a\x1b[38:2::1:2:3;4:3m\x1b]0;t\x1b\\e\u0301\t\b\x1b[J"), uint8(5), uint16(9))
	f.Fuzz(func(t *testing.T, data []byte, cols uint8, split uint16) {
		const maxLines = 8
		width := int(cols)%40 + 1
		whole := NewTerm(width, 4, maxLines)
		_, _ = whole.Write(data)
		parts := NewTerm(width, 4, maxLines)
		at := int(split) % (len(data) + 1)
		_, _ = parts.Write(data[:at])
		_, _ = parts.Write(data[at:])

		s, p := whole.Snapshot(), parts.Snapshot()
		if !slices.Equal(s.Lines, p.Lines) || s.Total != p.Total || s.Dropped != p.Dropped {
			t.Fatalf("split at %d changes the screen:\n%q\n%q", at, s.Lines, p.Lines)
		}
		if len(s.Lines) > maxLines || s.Total != s.Dropped+len(s.Lines) {
			t.Fatalf("%d lines, total %d, dropped %d", len(s.Lines), s.Total, s.Dropped)
		}
		for _, line := range s.Lines {
			if !utf8.ValidString(line) {
				t.Fatalf("invalid UTF-8 in %q", line)
			}
		}
		if plain := whole.Plain(); !utf8.ValidString(plain) {
			t.Fatalf("invalid UTF-8 in plain text %q", plain)
		}
	})
}
