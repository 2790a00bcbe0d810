package markdown

import "bytes"

// prepare adjusts markdown before glamour sees it, in ways that keep its
// meaning: tabs become spaces and fenced code blocks without a language are
// marked as plain text.
func prepare(src []byte) []byte {
	return labelBareFences(expandTabs(src))
}

// tabWidth is the tab stop markdown assumes for block structure.
const tabWidth = 4

// expandTabs replaces tabs with spaces up to the next tab stop. Terminal
// layout measures a tab as zero cells, so code indented with tabs would
// otherwise break wrapping and the transcript's line widths. Block structure
// is unchanged: CommonMark reads tabs with the same stops.
func expandTabs(src []byte) []byte {
	if bytes.IndexByte(src, '\t') < 0 {
		return src
	}
	out := make([]byte, 0, len(src)+len(src)/8)
	col := 0
	for _, c := range src {
		switch c {
		case '\t':
			n := tabWidth - col%tabWidth
			for range n {
				out = append(out, ' ')
			}
			col += n
		case '\n':
			out = append(out, c)
			col = 0
		default:
			out = append(out, c)
			// Count columns per character, not per byte of UTF-8.
			if c&0xc0 != 0x80 {
				col++
			}
		}
	}
	return out
}

// plainLanguage is chroma's name for text that is not highlighted.
const plainLanguage = "text"

// labelBareFences gives fenced code blocks that name no language the
// language "text". Left bare, chroma would try every lexer's file patterns
// and then guess the language from the code, which costs several
// milliseconds per block and often guesses wrong. Only fences indented at
// most three columns are labelled; deeper ones, inside nested lists, are
// left to chroma.
func labelBareFences(src []byte) []byte {
	var out []byte // nil until a fence needs a label
	var open fence
	copied := 0
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		l := bytes.TrimSuffix(src[start:end], []byte("\r"))
		switch {
		case open.n > 0:
			if closesFence(l, open, false) {
				open = fence{}
			}
		default:
			if f, ok := opensFence(l, false); ok {
				open = f
				if isBlank(l[f.indent+f.n:]) {
					at := start + f.indent + f.n
					out = append(out, src[copied:at]...)
					out = append(out, plainLanguage...)
					copied = at
				}
			}
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return append(out, src[copied:]...)
}
