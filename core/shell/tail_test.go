package shell

import (
	"strings"
	"testing"
)

// The cases of the three tail cutters this replaced (the bash tool's, rpc
// mode's and bashmode's), with pi 0.87.1's answers: each input was given
// to pi's truncateTail (dist/core/tools/truncate.js) and its content,
// truncatedBy, outputLines, lastLinePartial and totalLines recorded.
func TestCutTail(t *testing.T) {
	tests := []struct {
		name               string
		in                 string
		maxLines, maxBytes int
		text               string
		by                 Limit
		lines              int
		partial            bool
		total              int
	}{
		{"fits", "a\nb", 2, 100, "a\nb", NoLimit, 2, false, 2},
		{"fits three", "a\nb\nc", 3, 100, "a\nb\nc", NoLimit, 3, false, 3},
		{"line limit", "a\nb\nc\nd", 2, 100, "c\nd", LineLimit, 2, false, 4},
		{"a final newline ends the last line", "a\nb\nc\n", 2, 100, "b\nc", LineLimit, 2, false, 3},
		{"final newline, two lines fit", "a\nb\n", 2, 100, "a\nb\n", NoLimit, 2, false, 2},
		{"final newline, one line kept", "a\nb\nc\n", 1, 100, "c", LineLimit, 1, false, 3},
		{"empty lines count", "a\n\n\nb\n", 2, 100, "\nb", LineLimit, 2, false, 4},
		{"byte limit", "aaaa\nbbbb\ncccc", 10, 9, "bbbb\ncccc", ByteLimit, 2, false, 3},
		{"byte limit, final newline", "aaaa\nbbbb\ncccc\n", 10, 10, "bbbb\ncccc", ByteLimit, 2, false, 3},
		{"byte limit keeps one line", "aaaa\nbbbb\ncccc", 10, 8, "cccc", ByteLimit, 1, false, 3},
		{"bytes exactly", "aaaa\nbbbb", 10, 9, "aaaa\nbbbb", NoLimit, 2, false, 2},
		{"last line too long", "a\nxxxxxxxxxyz", 10, 3, "xyz", ByteLimit, 1, true, 2},
		{"last line too long, four bytes", "a\nxxxxxxxxxx", 10, 4, "xxxx", ByteLimit, 1, true, 2},
		{"partial line starts on a character", "a\n€€", 10, 4, "€", ByteLimit, 1, true, 2},
		{"cut at a character boundary", "ééééé", 10, 5, "éé", ByteLimit, 1, true, 1},
		{"empty", "", 1, 1, "", NoLimit, 0, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CutTail(tt.in, tt.maxLines, tt.maxBytes)
			if got.Text != tt.text || got.By != tt.by || got.Lines != tt.lines || got.LastLinePartial != tt.partial ||
				got.Truncated != (tt.by != NoLimit) || got.TotalBytes != len(tt.in) || got.TotalLines != tt.total {
				t.Errorf("CutTail(%q, %d, %d) = %+v", tt.in, tt.maxLines, tt.maxBytes, got)
			}
		})
	}
}

// rpc mode's cases: pi's limits on many short lines and on one long line.
func TestCutTailAtPiLimits(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		b.WriteString(strings.Repeat("x", 3) + "\n")
	}
	got := CutTail(b.String(), DefaultMaxLines, DefaultMaxBytes)
	if !got.Truncated || strings.Count(got.Text, "\n") != 1999 || got.Lines != 2000 || got.TotalLines != 3000 || strings.HasSuffix(got.Text, "\n") {
		t.Errorf("kept %d lines (cut %v)", strings.Count(got.Text, "\n"), got.Truncated)
	}
	long := strings.Repeat("é", 40000) // one 80,000-byte line
	got = CutTail(long, DefaultMaxLines, DefaultMaxBytes)
	if !got.Truncated || len(got.Text) > DefaultMaxBytes || !strings.HasSuffix(long, got.Text) || !strings.HasPrefix(got.Text, "é") {
		t.Errorf("long line: kept %d bytes (cut %v)", len(got.Text), got.Truncated)
	}
	if got.LastLineBytes != len(long) {
		t.Errorf("last line %d bytes, want %d", got.LastLineBytes, len(long))
	}
}
