package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// feed appends text to s in pieces of n bytes, viewing after each one, as
// the transcript does while an answer streams in.
func feed(s *Stream, r *Renderer, text string, n int) {
	for len(text) > 0 {
		k := min(n, len(text))
		s.Append(text[:k])
		text = text[k:]
		s.View(r)
	}
}

func TestStreamMatchesRender(t *testing.T) {
	cases := []struct {
		palette string
		width   int
		chunk   int // bytes per delta; 0 for the whole text at once
	}{
		{"dark", 80, 13},
		{"dark", 80, 0},
		{"light", 80, 13},
		{"dark", 44, 29},
		{"light", 44, 0},
	}
	for name, doc := range docs(t) {
		for _, c := range cases {
			r := New(palettes[c.palette], c.width)
			want := r.Render(doc)
			chunk := c.chunk
			if chunk == 0 {
				chunk = len(doc)
			}
			var s Stream
			feed(&s, r, doc, chunk)
			if got := s.View(r); got != want {
				t.Errorf("%s/%s/width %d/chunks of %d: stream differs from Render:\n%s",
					name, c.palette, c.width, chunk, lineDiff(want, got))
			}
		}
	}
}

func TestRenderGolden(t *testing.T) {
	for name, doc := range docs(t) {
		for pname, p := range palettes {
			out := New(p, 80).Render(doc)
			golden(t, name+"-"+pname+".golden", out)
			for i, line := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(line); w > 80 {
					t.Errorf("%s/%s line %d is %d cells wide", name, pname, i+1, w)
				}
				if strings.HasSuffix(stripANSI(line), " ") {
					t.Errorf("%s/%s line %d ends in a space: %q", name, pname, i+1, line)
				}
			}
		}
	}
}

func TestStableBlocksRenderOnce(t *testing.T) {
	doc := docs(t)["answer"]
	r := New(darkPalette, 80)
	var s Stream
	feed(&s, r, doc, 4)

	if got, want := s.stableRenders, len(s.split.closed); got != want || want < 5 {
		t.Errorf("finished blocks rendered %d times for %d blocks, want once each", got, want)
	}

	// Viewing again without new text renders nothing.
	before := r.renders
	first := s.View(r)
	if again := s.View(r); again != first || r.renders != before {
		t.Errorf("repeated View rendered %d more times", r.renders-before)
	}
}

func TestAppendRendersOnlyTheTail(t *testing.T) {
	doc := docs(t)["answer"]
	long := strings.Repeat(doc+"\n\n", 12)
	r := New(darkPalette, 80)
	var s Stream
	s.Append(long)
	s.View(r)

	lastBlock := s.split.closed[len(s.split.closed)-1]
	limit := lastBlock.end - lastBlock.start + 64
	for _, delta := range []string{"More", " words", " here.", "\n\nNew", " paragraph."} {
		renders, bytes := r.renders, r.renderedBytes
		s.Append(delta)
		s.View(r)
		if n := r.renderedBytes - bytes; n > limit {
			t.Errorf("after appending %q View rendered %d bytes of a %d-byte text, want at most %d",
				delta, n, s.Len(), limit)
		}
		if n := r.renders - renders; n > 2 {
			t.Errorf("after appending %q View called glamour %d times, want at most 2", delta, n)
		}
	}
	if got, want := s.View(r), r.Render(s.Text()); got != want {
		t.Errorf("stream differs from Render:\n%s", lineDiff(want, got))
	}
}

func TestWidthChangeRerenders(t *testing.T) {
	doc := docs(t)["basics"]
	wide, narrow := New(darkPalette, 80), New(darkPalette, 40)
	var s Stream
	s.Append(doc)
	if got, want := s.View(wide), wide.Render(doc); got != want {
		t.Fatalf("at 80 columns:\n%s", lineDiff(want, got))
	}

	blocks := len(s.split.closed)
	before := s.stableRenders
	got := s.View(narrow)
	if want := narrow.Render(doc); got != want {
		t.Errorf("at 40 columns:\n%s", lineDiff(want, got))
	}
	if n := s.stableRenders - before; n != blocks {
		t.Errorf("width change rendered %d finished blocks, want all %d once", n, blocks)
	}
	before = s.stableRenders
	s.View(narrow)
	if s.stableRenders != before {
		t.Errorf("second View at the new width rendered finished blocks again")
	}
	if got := s.View(wide); got != wide.Render(doc) {
		t.Errorf("back at 80 columns the view differs from Render")
	}
}

func TestPaletteChangeRerenders(t *testing.T) {
	doc := "# Title\n\nSome `code`.\n\nMore text."
	var s Stream
	s.Append(doc)
	dark := s.View(New(darkPalette, 80))
	light := s.View(New(lightPalette, 80))
	if dark == light {
		t.Fatal("dark and light views are the same")
	}
	if want := New(lightPalette, 80).Render(doc); light != want {
		t.Errorf("light view differs from Render:\n%s", lineDiff(want, light))
	}
}

func TestSetExtendsOrStartsOver(t *testing.T) {
	r := New(darkPalette, 80)
	var s Stream
	s.Set("first paragraph\n\nsecond\n\n")
	s.Set("first paragraph\n\nsecond\n\nthird\n")
	s.View(r)
	s.Set("first paragraph\n\nsecond\n\nthird\n\nfourth\n")
	s.View(r)
	// Each finished block was rendered once: extending did not start over.
	if s.stableRenders != len(s.split.closed) || len(s.split.closed) != 3 {
		t.Errorf("%d finished blocks rendered %d times", len(s.split.closed), s.stableRenders)
	}
	if got, want := s.View(r), r.Render(s.Text()); got != want {
		t.Errorf("after extending:\n%s", lineDiff(want, got))
	}
	s.Set("something else")
	if got, want := s.View(r), r.Render("something else"); got != want {
		t.Errorf("after replacing:\n%s", lineDiff(want, got))
	}
	s.Reset()
	if got := s.View(r); got != "" || s.Len() != 0 {
		t.Errorf("after Reset View = %q, Len = %d", got, s.Len())
	}
}

func TestUnclosedFenceShowsAsCode(t *testing.T) {
	r := New(darkPalette, 80)
	var s Stream
	s.Append("Look:\n\n```go\nfunc main() {\n")
	got := s.View(r)
	want := r.Render("Look:\n\n```go\nfunc main() {\n```\n")
	if got != want {
		t.Errorf("open fence:\n%s", lineDiff(want, got))
	}
	if strings.Contains(stripANSI(got), "```") {
		t.Errorf("the fence shows as text:\n%s", stripANSI(got))
	}
}

func TestViewParts(t *testing.T) {
	r := New(darkPalette, 80)
	var s Stream
	s.Append("one\n\ntwo\n\nthree\n")
	stable, tail := s.ViewParts(r)
	if stripANSI(stable) != "one\n\ntwo" || stripANSI(tail) != "three" {
		t.Errorf("ViewParts = %q, %q", stripANSI(stable), stripANSI(tail))
	}
	if got := s.View(r); got != stable+"\n\n"+tail {
		t.Errorf("View is not the parts joined by a blank line")
	}
	if stable, tail := s.ViewParts(nil); stable != "" || tail != s.Text() {
		t.Errorf("ViewParts(nil) = %q, %q, want the raw text", stable, tail)
	}
}

// joinPieces is the whole view the parts of p make.
func joinPieces(p Pieces) string {
	var parts []string
	if p.Stable != "" {
		parts = append(parts, p.Stable)
	}
	tail := p.Held
	switch {
	case tail == "":
		tail = p.Open
	case p.Open != "":
		tail += "\n" + p.Open
	}
	if tail != "" {
		parts = append(parts, tail)
	}
	return strings.Join(parts, blockSeparator)
}

// TestViewPiecesGrowWithinEpochs feeds documents with long paragraphs and
// long code blocks in small deltas and checks, after each, that the pieces
// make the view and that Stable and Held only grew while their epochs
// stayed.
func TestViewPiecesGrowWithinEpochs(t *testing.T) {
	long := strings.Repeat("A long paragraph that goes on and on with **some** words. ", 24)
	code := "```go\n" + strings.Repeat("x := compute(1, 2) // a line of code\n", 30) + "```\n"
	ds := docs(t)
	for name, doc := range map[string]string{
		"long":   long + "\n\n" + code + "\n" + long,
		"answer": ds["answer"] + "\n" + long + "\n\n" + code,
		"lists":  ds["lists"] + "\n" + code,
	} {
		r := New(darkPalette, 80)
		var s Stream
		var prev Pieces
		held := 0
		for i := 0; i < len(doc); i += 13 {
			s.Append(doc[i:min(i+13, len(doc))])
			p := s.ViewPieces(r)
			if got, want := joinPieces(p), s.View(r); got != want {
				t.Fatalf("%s at %d: pieces differ from View:\n%s", name, i, lineDiff(want, got))
			}
			if p.StableEpoch == prev.StableEpoch && !strings.HasPrefix(p.Stable, prev.Stable) {
				t.Fatalf("%s at %d: Stable changed within its epoch", name, i)
			}
			if p.HeldEpoch == prev.HeldEpoch && !strings.HasPrefix(p.Held, prev.Held) {
				t.Fatalf("%s at %d: Held changed within its epoch (%d bytes, was %d)", name, i, len(p.Held), len(prev.Held))
			}
			if p.HeldEpoch == prev.HeldEpoch && prev.Held != "" && len(p.Held) > len(prev.Held) && p.Held[len(prev.Held)] != '\n' {
				t.Fatalf("%s at %d: Held grew without a line break", name, i)
			}
			if len(p.Held) > 0 {
				held++
			}
			prev = p
		}
		if held == 0 {
			t.Errorf("%s: no held lines while streaming; the test proves nothing", name)
		}
		s.Finish()
		if got, want := joinPieces(s.ViewPieces(r)), r.Render(doc); got != want {
			t.Errorf("%s: finished pieces differ from Render:\n%s", name, lineDiff(want, got))
		}
	}
}
