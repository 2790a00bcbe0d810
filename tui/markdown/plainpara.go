package markdown

import (
	"bytes"
	"strings"
)

// plainLine is how glamour draws each line of a paragraph of plain words,
// learnt from the Renderer itself (see learnPlainLine): prefix, the words,
// suffix.
type plainLine struct {
	prefix, suffix string
	ok             bool // the Renderer draws plain paragraphs that way
}

// simpleParagraph reports whether src is a paragraph that glamour draws as
// plain words wrapped greedily at width, each line styled alike: ASCII
// letters, digits and a few punctuation marks that no markdown rule reads,
// words one space apart, none longer than width, starting with a letter
// (so it cannot open a list or a heading).
func simpleParagraph(src []byte, width int) bool {
	if len(src) == 0 || !isLetter(src[0]) || src[len(src)-1] == ' ' {
		return false
	}
	word := 0
	for i, c := range src {
		switch {
		case c == ' ':
			if src[i-1] == ' ' {
				return false
			}
			word = 0
			continue
		case isLetter(c), c >= '0' && c <= '9', c == '.', c == ',', c == ';', c == ':', c == '?':
		default:
			return false
		}
		if word++; word > width {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// learnPlainLine renders two tiny paragraphs with glamour to learn how it
// styles a line of plain words, once per Renderer.
func (r *Renderer) learnPlainLine() plainLine {
	if r.plain != nil {
		return *r.plain
	}
	var pl plainLine
	one, two := r.renderGlamour([]byte("x")), r.renderGlamour([]byte("x y"))
	if i := strings.Index(one, "x"); i >= 0 && strings.Count(one, "x") == 1 && !strings.Contains(one, "\n") {
		pl = plainLine{prefix: one[:i], suffix: one[i+1:]}
		pl.ok = two == pl.prefix+"x y"+pl.suffix
	}
	r.plain = &pl
	return pl
}

// renderPlainParagraph draws a simpleParagraph as glamour would, without
// glamour: the words wrapped greedily at the Renderer's width, each line
// between the learnt prefix and suffix. It costs a copy of the text, where
// glamour costs hundreds of allocations a line. ok is false when src is not
// a simple paragraph or the Renderer's lines are not simply styled. Spaces
// at the end are dropped first, as markdown drops them from a paragraph's
// end: a streaming paragraph cut after a word ends in one.
func (r *Renderer) renderPlainParagraph(src []byte) (string, bool) {
	src = bytes.TrimRight(src, " ")
	if !simpleParagraph(src, r.width) {
		return "", false
	}
	pl := r.learnPlainLine()
	if !pl.ok {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(src) + (len(src)/r.width+1)*(len(pl.prefix)+len(pl.suffix)+1))
	b.WriteString(pl.prefix)
	line := 0
	for len(src) > 0 {
		word := src
		if i := bytes.IndexByte(src, ' '); i >= 0 {
			word, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		switch {
		case line == 0:
		case line+1+len(word) <= r.width:
			b.WriteByte(' ')
			line++
		default:
			b.WriteString(pl.suffix)
			b.WriteByte('\n')
			b.WriteString(pl.prefix)
			line = 0
		}
		b.Write(word)
		line += len(word)
	}
	b.WriteString(pl.suffix)
	return b.String(), true
}
