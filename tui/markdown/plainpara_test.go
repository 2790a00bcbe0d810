package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomParagraph makes a paragraph of n words drawn from a mix of short,
// long and punctuated words, some as long as width.
func randomParagraph(rng *rand.Rand, n, width int) string {
	words := []string{"tok", "a", "I", "the", "streaming", "words,", "end.", "why?", "semi;", "x:", "42", "v2", "Config", "loader"}
	var b strings.Builder
	b.WriteString("Start")
	for range n {
		b.WriteByte(' ')
		if rng.IntN(20) == 0 {
			b.WriteString(strings.Repeat("w", 1+rng.IntN(width)))
			continue
		}
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.String()
}

// TestPlainParagraphMatchesGlamour draws random plain paragraphs both ways,
// in both palettes and at several widths, and wants them identical.
func TestPlainParagraphMatchesGlamour(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for pname, p := range palettes {
		for _, width := range []int{10, 11, 29, 30, 44, 80, 118} {
			r := New(p, width)
			for range 60 {
				src := []byte(randomParagraph(rng, rng.IntN(120), width))
				got, ok := r.renderPlainParagraph(src)
				if !ok {
					t.Fatalf("%s/%d: %q was not drawn as a plain paragraph", pname, width, src)
				}
				if want := r.renderGlamour(src); got != want {
					t.Fatalf("%s/%d: %q\ndrawn as %q\nglamour:  %q", pname, width, src, got, want)
				}
				fast++
			}
		}
	}
	if fast == 0 {
		t.Fatal("nothing compared")
	}
}

// TestNotSimpleParagraphs are texts glamour reads as more than plain words.
func TestNotSimpleParagraphs(t *testing.T) {
	for _, s := range []string{
		"", " lead", "trail ", "two  spaces", "new\nline", "1. a list", "- item", "# head",
		"**bold**", "a `code` span", "a [link](x)", "snake_case", "a-b", "tab\there",
		"caf\u00e9", "it's", "a <b> tag", "x & y", "a\\b", "wide " + strings.Repeat("w", 31),
	} {
		if simpleParagraph([]byte(s), 30) {
			t.Errorf("%q taken for a plain paragraph", s)
		}
	}
}

// FuzzPlainParagraph checks that whatever simpleParagraph accepts is drawn
// exactly as glamour draws it.
func FuzzPlainParagraph(f *testing.F) {
	f.Add("Hello world, this is fine.", 30)
	f.Add("tok tok tok tok tok tok tok tok", 10)
	f.Add("tok tok tok tok tok tok tok tok ", 10)
	f.Add("trailing spaces   ", 30)
	f.Add("Start wwwwwwwwwwwwwwwwwwwwwwwwwwwwww x", 30)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = minWidth + (width%100+100)%100
		r := New(darkPalette, width)
		got, ok := r.renderPlainParagraph([]byte(s))
		if !ok {
			return
		}
		if want := r.renderGlamour([]byte(s)); got != want {
			t.Fatalf("%q at %d:\ndrawn as %q\nglamour:  %q", s, width, got, want)
		}
	})
}

// TestPlainParagraphWithTrailingSpaces draws a streaming paragraph cut
// after a word, as paraTail and a stream's open block hand it over, without
// glamour and as glamour draws it.
func TestPlainParagraphWithTrailingSpaces(t *testing.T) {
	for _, width := range []int{10, 29, 118} {
		r := New(darkPalette, width)
		for n := 1; n < 80; n += 7 {
			for _, tail := range []string{" ", "   "} {
				src := []byte(strings.Repeat("tok ", n-1) + "tok" + tail)
				got, ok := r.renderPlainParagraph(src)
				if !ok {
					t.Fatalf("%q at %d was not drawn as a plain paragraph", src, width)
				}
				if want := r.renderGlamour(src); got != want {
					t.Fatalf("%q at %d:\ndrawn as %q\nglamour:  %q", src, width, got, want)
				}
			}
		}
	}
}
