package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchSizes are the lengths of answer already streamed when the measured
// delta arrives.
var benchSizes = []int{1 << 10, 16 << 10, 256 << 10}

// benchDoc returns n bytes or a little more of mixed markdown with code,
// made of the sample documents in turn.
func benchDoc(b *testing.B, n int) string {
	b.Helper()
	var parts []string
	for _, name := range []string{"answer", "code", "lists", "basics", "table"} {
		data, err := os.ReadFile(filepath.Join("testdata", "docs", name+".md"))
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, string(data))
	}
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(parts[i%len(parts)])
		sb.WriteString("\n")
	}
	return sb.String()
}

// deltas cuts text into pieces of about five bytes, the size of a streamed
// token.
func deltas(text string) []string {
	var out []string
	for len(text) > 0 {
		k := min(5, len(text))
		out = append(out, text[:k])
		text = text[k:]
	}
	return out
}

func benchmarkAppend(b *testing.B, view func(*Stream, *Renderer)) {
	r := New(darkPalette, 100)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("N=%dKB", n>>10), func(b *testing.B) {
			var s Stream
			s.Append(benchDoc(b, n))
			view(&s, r)
			// The answer goes on with more mixed markdown, so the open
			// block keeps turning into finished ones as it would live.
			ds := deltas(benchDoc(b, 4<<10))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Append(ds[i%len(ds)])
				view(&s, r)
			}
		})
	}
}

// BenchmarkStreamAppend appends one delta to an answer of N bytes and
// renders the view; its cost should not grow with N.
func BenchmarkStreamAppend(b *testing.B) {
	benchmarkAppend(b, func(s *Stream, r *Renderer) { s.View(r) })
}

// BenchmarkStreamAppendParts is BenchmarkStreamAppend for a caller that
// takes the finished and open parts apart and so copies nothing.
func BenchmarkStreamAppendParts(b *testing.B) {
	benchmarkAppend(b, func(s *Stream, r *Renderer) { s.ViewParts(r) })
}

// BenchmarkRenderFull renders a whole answer of N bytes at once, which is
// what every delta would cost without Stream.
func BenchmarkRenderFull(b *testing.B) {
	r := New(darkPalette, 100)
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("N=%dKB", n>>10), func(b *testing.B) {
			doc := benchDoc(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.Render(doc)
			}
		})
	}
}

// BenchmarkNew measures building a Renderer, which a caller should do once
// per palette and width.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		New(darkPalette, 80+i%2)
	}
}

// BenchmarkRenderPlain wraps a 4 KB thinking block.
func BenchmarkRenderPlain(b *testing.B) {
	text := strings.Repeat("I should check the config loader first, then the tests. ", 72)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		RenderPlain(text, 100, darkStyleForBench)
	}
}

// BenchmarkStreamList appends to the last item of a tight list of N items
// and renders the view; its cost should not grow with N.
func BenchmarkStreamList(b *testing.B) {
	r := New(darkPalette, 100)
	for _, n := range []int{10, 100, 400} {
		var sb strings.Builder
		sb.WriteString("Intro paragraph.\n\n")
		for i := range n {
			fmt.Fprintf(&sb, "- item number %d with `some` words and **bold** text\n", i)
		}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			var s Stream
			s.Append(sb.String() + "- the last item")
			s.View(r)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Append(" word")
				s.ViewPieces(r)
			}
		})
	}
}
