package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTableSizedToContent renders a small table at 200 columns: it is as
// wide as its cells need, not the terminal, and no cell wraps; at 30
// columns it still fits the width.
func TestTableSizedToContent(t *testing.T) {
	src := "| Name | Size | Note |\n|---|---:|---|\n| parser.go | 12 KB | the **parser** |\n| lexer.go | 3 KB | tokens |"
	out := stripANSI(New(darkPalette, 200).Render(src))
	widest := 0
	for _, l := range strings.Split(out, "\n") {
		widest = max(widest, ansi.StringWidth(strings.TrimRight(l, " ")))
	}
	if widest > 40 {
		t.Fatalf("a 3-column table is %d cells wide at 200 columns:\n%s", widest, out)
	}
	for _, want := range []string{"parser.go", "12 KB", "the parser", "lexer.go", "tokens"} {
		if !strings.Contains(out, want) {
			t.Fatalf("%q is missing or wrapped:\n%s", want, out)
		}
	}
	narrow := stripANSI(New(darkPalette, 30).Render(src))
	for _, l := range strings.Split(narrow, "\n") {
		if w := ansi.StringWidth(strings.TrimRight(l, " ")); w > 30 {
			t.Fatalf("a line is %d wide at 30 columns:\n%s", w, narrow)
		}
	}
}

func TestTableWidth(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"| a | bb |\n|---|---|\n| ccc | d |", 3 + 2 + 3*2 - 1},
		{"just text | with a pipe", 0},
		{"| a | b |\nnot a delimiter", 0},
		{"| x \\| y | z |\n|--|--|\n| 1 | 2 |", 6 + 1 + 5},
	} {
		if got := tableWidth([]byte(c.src)); got != c.want {
			t.Errorf("tableWidth(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

// TestFinishedStreamSizesATableBeforeALastLine finishes a stream whose
// table is followed by a last line with no newline: the table is a block
// of its own, sized to its content, as Render draws it.
func TestFinishedStreamSizesATableBeforeALastLine(t *testing.T) {
	md := "| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end, with no newline."
	r := New(darkPalette, 120)
	var s Stream
	s.Set(md)
	s.Finish()
	got := stripANSI(s.View(r))
	if got != stripANSI(r.Render(md)) {
		t.Fatalf("finished stream:\n%s\nRender:\n%s", got, stripANSI(r.Render(md)))
	}
	for _, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(strings.TrimRight(l, " ")); w > 40 {
			t.Fatalf("the table is stretched to %d cells:\n%s", w, got)
		}
	}
	s.Append(" More.")
	if !strings.Contains(stripANSI(s.View(r)), "no newline. More.") {
		t.Fatalf("text appended after Finish is lost:\n%s", stripANSI(s.View(r)))
	}
}
