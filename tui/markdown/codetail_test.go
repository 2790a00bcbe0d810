package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// goCode returns n lines of Go with blank lines here and there and no token
// spanning lines, so that rendering it in chunks changes nothing.
func goCode(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch {
		case i%7 == 6:
			b.WriteString("\n")
		case i%5 == 4:
			b.WriteString("\t// a comment about the next line\n")
		default:
			fmt.Fprintf(&b, "\tx%d := compute(%d, \"value\") * 2\n", i, i)
		}
	}
	return b.String()
}

func TestStreamingCodeBlockMatchesWholeBlock(t *testing.T) {
	r := New(darkPalette, 60)
	text := "Intro.\n\n```go\n" + goCode(40)
	var s Stream
	for i := 0; i < len(text); i += 37 {
		s.Append(text[i:min(i+37, len(text))])
		got := s.View(r)
		want := r.Render(s.Text() + "\n```\n")
		if got != want {
			t.Fatalf("after %d bytes:\n%s", s.Len(), lineDiff(want, got))
		}
	}
	if len(s.code.sealed) < 3 {
		t.Errorf("only %d chunks sealed for 40 lines", len(s.code.sealed))
	}
	// Closing the fence hands the block back to whole-block rendering.
	s.Append("```\n\nAfter.\n")
	if got, want := s.View(r), r.Render(s.Text()); got != want {
		t.Errorf("after the fence closed:\n%s", lineDiff(want, got))
	}
}

func TestStreamingCodeBlockCostIsBounded(t *testing.T) {
	r := New(darkPalette, 80)
	var s Stream
	s.Append("```go\n" + goCode(400))
	s.View(r)
	for _, delta := range []string{"\tfoo", "(bar)", "\n\tbaz", "()\n"} {
		before := r.renderedBytes
		s.Append(delta)
		s.View(r)
		if n := r.renderedBytes - before; n > 40*codeChunkLines {
			t.Errorf("appending %q to a %d-byte code block rendered %d bytes", delta, s.Len(), n)
		}
	}
}

func TestCodeChunksKeepBlankLines(t *testing.T) {
	tests := []struct {
		name string
		code string
	}{
		{"blank lines at chunk edges", strings.Repeat("a\n\n", 30)},
		{"runs of blank lines", strings.Repeat("a\nb\nc\n\n\n\n", 12)},
		{"trailing spaces on blank lines", strings.Repeat("line\n   \n", 25)},
	}
	r := New(lightPalette, 50)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stream
			feed(&s, r, "```text\n"+tt.code, 7)
			if got, want := s.View(r), r.Render(s.Text()+"```\n"); got != want {
				t.Errorf("chunked code differs:\n%s", lineDiff(want, got))
			}
		})
	}
}

func TestLabelBareFences(t *testing.T) {
	tests := []struct{ in, want string }{
		{"```\nx\n```\n", "```text\nx\n```\n"},
		{"~~~~  \nx\n~~~~", "~~~~text  \nx\n~~~~"},
		{"```go\nx\n```\n", "```go\nx\n```\n"},
		// The closing fence is not an opening one.
		{"```\nx\n```\n\n```\ny\n```", "```text\nx\n```\n\n```text\ny\n```"},
		{"````md\n```\nx\n```\n````", "````md\n```\nx\n```\n````"},
		{"    ```\n    x", "    ```\n    x"},
		{"no fences", "no fences"},
	}
	for _, tt := range tests {
		if got := string(labelBareFences([]byte(tt.in))); got != tt.want {
			t.Errorf("labelBareFences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStreamingCodeBlockFollowsWidth(t *testing.T) {
	wide, narrow := New(darkPalette, 80), New(darkPalette, 30)
	var s Stream
	s.Append("```go\n" + goCode(30))
	s.View(wide)
	got := s.View(narrow)
	if want := narrow.Render(s.Text() + "```\n"); got != want {
		t.Errorf("after narrowing:\n%s", lineDiff(want, got))
	}
}
