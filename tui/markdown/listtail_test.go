package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// listDocs are lists a model writes, and lists that must not be cut.
func listDocs() map[string]string {
	var bullets, numbers, nested, same strings.Builder
	for i := range 16 {
		fmt.Fprintf(&bullets, "- item %d with `code`, **bold** and words enough to wrap past the width of the screen here\n", i)
		fmt.Fprintf(&numbers, "%d. step %d: run `make test` and read what it says\n", i+1, i)
		fmt.Fprintf(&nested, "* group %d\n  * inner one\n  * inner two with *emphasis*\n  continued text of the group\n", i)
		fmt.Fprintf(&same, "1. same number %d\n", i)
	}
	return map[string]string{
		"bullets": "Intro.\n\n" + bullets.String() + "\nAfter the list.\n",
		"numbers": numbers.String(),
		"nested":  nested.String(),
		"same":    same.String(),
		"loose":   bullets.String()[:600] + "\n" + bullets.String(),
		"break":   bullets.String() + "- - -\n" + bullets.String(),
		"fence":   bullets.String()[:500] + "\n  ```go\n  x := 1\n  ```\n" + bullets.String(),
		"plus":    strings.ReplaceAll(bullets.String(), "- item 7", "+ item 7"),
		"start":   "7. seven\n8. eight\n9. nine\n10. ten\n11. eleven\n12. twelve\n13. thirteen\n",
	}
}

// TestListStreamsInChunksAsRendered streams lists 11 bytes at a time
// and wants, whenever the text ends a line, exactly what Render draws for
// that text; and long lists must have been cut into chunks.
func TestListStreamsInChunksAsRendered(t *testing.T) {
	for name, doc := range listDocs() {
		for _, width := range []int{44} {
			r := New(darkPalette, width)
			var s Stream
			cut := false
			for i := 0; i < len(doc); i += 11 {
				s.Append(doc[i:min(i+11, len(doc))])
				p := s.ViewPieces(r)
				if s.heldKind == heldList {
					cut = true
				}
				if text := s.Text(); strings.HasSuffix(text, "\n") {
					if got, want := joinPieces(p), r.Render(text); got != want {
						t.Fatalf("%s/%d at %d bytes: the stream differs from Render:\n%s", name, width, len(text), lineDiff(want, got))
					}
				}
			}
			if want := name == "bullets" || name == "numbers" || name == "nested" || name == "plus" || name == "start" || name == "loose" || name == "break" || name == "fence"; cut != want {
				t.Errorf("%s/%d: cut into chunks %v, want %v", name, width, cut, want)
			}
		}
	}
}

// TestLongListRendersItsNewChunkOnly checks the point of cutting: with a
// long list streaming, a delta renders a few items, not the list.
func TestLongListRendersItsNewChunkOnly(t *testing.T) {
	doc := listDocs()["bullets"]
	r := New(darkPalette, 80)
	var s Stream
	s.Append(doc[:len(doc)*3/4])
	s.ViewPieces(r)
	before := r.renderedBytes
	s.Append("more words")
	s.ViewPieces(r)
	if n := r.renderedBytes - before; n > (listChunkItems+1)*120 {
		t.Errorf("a delta rendered %d bytes of a %d-byte list", n, len(doc))
	}
}

// FuzzListTail streams list-shaped texts (every line an item at the margin
// or indented) and wants, at every line end, what Render draws for the
// text so far, whether or not the list was cut into chunks.
func FuzzListTail(f *testing.F) {
	f.Add("- a\n- b\n- c\n- d\n- e\n- f\n", 5)
	f.Add("1. a\n2. b\n  x\n3. c\n4. d\n5. e\n6. f\n", 3)
	f.Add("* a\n  * b\n* c\n* d\n* e\n* f\n* g\n", 2)
	f.Fuzz(func(t *testing.T, doc string, step int) {
		step = 1 + (step%16+16)%16
		if len(doc) > 2000 || strings.Contains(doc, "]:") || !strings.HasSuffix(doc, "\n") {
			return
		}
		for _, l := range strings.Split(strings.TrimSuffix(doc, "\n"), "\n") {
			if l == "" {
				return
			}
			if _, _, _, ok := topItem([]byte(l)); !ok && l[0] != ' ' {
				return
			}
		}
		r := New(darkPalette, 40)
		var s Stream
		for i := 0; i < len(doc); i += step {
			s.Append(doc[i:min(i+step, len(doc))])
			p := s.ViewPieces(r)
			if text := s.Text(); strings.HasSuffix(text, "\n") {
				if got, want := joinPieces(p), r.Render(text); got != want {
					t.Fatalf("%q at %d bytes:\n%s", doc, len(text), lineDiff(want, got))
				}
			}
		}
	})
}
