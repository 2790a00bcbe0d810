package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLongParagraphStreamsInChunks streams a paragraph far longer than a
// chunk: while it streams no word is lost or doubled, and once it ends it
// renders exactly as a whole.
func TestLongParagraphStreamsInChunks(t *testing.T) {
	r := New(Palette{Dark: true}, 80)
	var words []string
	for i := range 1500 {
		w := "word"
		switch i % 50 {
		case 7:
			w = "`code`"
		case 19:
			w = "**bold**"
		}
		words = append(words, w)
	}
	var s Stream
	for i, w := range words {
		s.Append(w + " ")
		if i%97 != 0 {
			continue
		}
		got := strings.Fields(ansi.Strip(s.View(r)))
		if len(got) != i+1 {
			t.Fatalf("after %d words the view shows %d", i+1, len(got))
		}
	}
	if s.para.rendered == 0 {
		t.Fatal("the paragraph was never cut into chunks")
	}
	full := strings.Join(words, " ")
	s.Set(full + "\n\nNext.\n")
	if got, want := s.View(r), r.Render(full+"\n\nNext.\n"); got != want {
		t.Fatalf("finished paragraph differs from a whole render:\n%s\n---\n%s", got, want)
	}
}

func TestSafeCutLeavesNoMarkupOpen(t *testing.T) {
	cases := []struct {
		in   string
		min  int
		want int
	}{
		{"aaa bbb ccc", 2, 4},
		{"a `b c` d e", 4, 8},
		{"a **b c** d", 4, 10},
		{"a [b c](u) d", 4, 11},
		{"a b <x> c", 3, 4},
		{"a b", 10, 0},
	}
	for _, c := range cases {
		if got := safeCut([]byte(c.in), c.min); got != c.want {
			t.Errorf("safeCut(%q, %d) = %d, want %d", c.in, c.min, got, c.want)
		}
	}
}

// TestStreamingParagraphBreaksAsAWhole streams a 1,200-word paragraph of
// plain words: at every point its lines are those of a whole render of
// the text so far, with no short line where a chunk was cut.
func TestStreamingParagraphBreaksAsAWhole(t *testing.T) {
	r := New(Palette{Dark: true}, 80)
	var s Stream
	var sofar strings.Builder
	for i := range 1200 {
		w := "word" + strings.Repeat("x", i%9)
		if i > 0 {
			s.Append(" ")
			sofar.WriteByte(' ')
		}
		s.Append(w)
		sofar.WriteString(w)
		if i%53 != 0 && i != 1199 {
			continue
		}
		if got, want := s.View(r), r.Render(sofar.String()); got != want {
			t.Fatalf("after %d words the streaming view differs from a whole render:\n%s", i+1, lineDiff(want, got))
		}
	}
	if s.para.rendered == 0 {
		t.Fatal("the paragraph was never cut into chunks")
	}
}
