package markdown

import (
	"bytes"
	"strings"
)

// span is a byte range of the text.
type span struct{ start, end int }

// fence describes an open fenced code block: its fence character, the
// length of its opening run and the opening line's indentation.
type fence struct {
	char   byte
	n      int
	indent int
}

// splitter cuts markdown into top-level blocks as the text grows. It reads
// only complete lines, each once, so feeding it costs time proportional to
// what was appended.
//
// A block ends at a blank line outside a fenced code block and outside a
// raw HTML block of the kinds a blank line does not end (comments, <pre>,
// <script>, <style>, <textarea>), unless the next non-blank line continues
// it: an indented line always does (list item content, indented code), and
// so does a list item when the block holds a list. Lists are thus kept whole
// with their loose items and nested code; the cost is that a long list is
// re-rendered as one tail while it streams.
type splitter struct {
	pos        int    // start of the first line not yet read
	inBlock    bool   // a block is open
	open       int    // start of the open block
	openEnd    int    // end of the open block's last non-blank line
	list       bool   // the open block contains a list item
	blankAfter bool   // a blank line followed the open block's last line
	fence      fence  // the open fenced code block; n == 0 if none
	fenceStart int    // start of the open fence's opening line
	fenceBody  int    // start of the line after the opening line
	rawEnd     string // what ends the open raw HTML block, or ""
	closed     []span // finished blocks, without trailing blank lines
}

// scan reads the complete lines of text that have not been read yet. text
// must extend the text given to earlier calls.
func (s *splitter) scan(text []byte) {
	for s.pos < len(text) {
		nl := bytes.IndexByte(text[s.pos:], '\n')
		if nl < 0 {
			s.closeBefore(text[s.pos:])
			return
		}
		end := s.pos + nl
		s.line(text[s.pos:end], s.pos)
		s.pos = end + 1
	}
}

// closeBefore finishes the open block now when rest, the incomplete last
// line, will finish it whatever it grows into: it follows a blank line and
// starts with a character no continuation starts with (not indented, and
// no list marker when the block holds a list). Otherwise the block would
// stay open, and be rendered again with every delta, until rest's line is
// complete.
func (s *splitter) closeBefore(rest []byte) {
	if !s.inBlock || !s.blankAfter || len(rest) == 0 {
		return
	}
	switch c := rest[0]; {
	case c == ' ' || c == '\t' || c == '\r':
		return
	case s.list && (c == '-' || c == '+' || c == '*' || c >= '0' && c <= '9'):
		return
	}
	s.closed = append(s.closed, span{s.open, s.openEnd})
	s.inBlock = false
}

// line takes one complete line l, which starts at offset start.
func (s *splitter) line(l []byte, start int) {
	end := start + len(l)
	next := end + 1
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l, end = l[:n-1], end-1
	}
	switch {
	case s.fence.n > 0:
		s.openEnd, s.blankAfter = end, false
		if closesFence(l, s.fence, s.list) {
			s.fence = fence{}
		}
		return
	case s.rawEnd != "":
		s.openEnd, s.blankAfter = end, false
		if containsFold(l, s.rawEnd) {
			s.rawEnd = ""
		}
		return
	case isBlank(l):
		if s.inBlock {
			s.blankAfter = true
		}
		return
	}
	if s.inBlock && s.blankAfter && !s.continues(l) {
		s.closed = append(s.closed, span{s.open, s.openEnd})
		s.inBlock = false
	}
	if !s.inBlock {
		s.inBlock, s.open, s.list = true, start, false
	}
	s.openEnd, s.blankAfter = end, false
	if isListItem(l) {
		s.list = true
	}
	if f, ok := opensFence(l, s.list); ok {
		s.fence, s.fenceStart, s.fenceBody = f, start, next
	} else {
		s.rawEnd = opensRawHTML(l)
	}
}

// continues reports whether l, coming after a blank line, belongs to the
// open block.
func (s *splitter) continues(l []byte) bool {
	if l[0] == ' ' || l[0] == '\t' {
		return true
	}
	return s.list && isListItem(l)
}

// tailStart returns where the part of the text that is not yet a finished
// block begins.
func (s *splitter) tailStart() int {
	if s.inBlock {
		return s.open
	}
	return s.pos
}

func isBlank(l []byte) bool {
	return len(bytes.Trim(l, " \t")) == 0
}

// indentation returns the width of l's leading white space, counting a tab
// as four columns, and the rest of the line.
func indentation(l []byte) (int, []byte) {
	n := 0
	for i, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n, l[i:]
		}
	}
	return n, nil
}

// isListItem reports whether l starts a list item: "-", "+" or "*", or up to
// nine digits and "." or ")", followed by white space or the end of line.
func isListItem(l []byte) bool {
	ind, rest := indentation(l)
	if ind > 3 || len(rest) == 0 {
		return false
	}
	i := 0
	switch c := rest[0]; {
	case c == '-' || c == '+' || c == '*':
		i = 1
	case c >= '0' && c <= '9':
		for i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == len(rest) || (rest[i] != '.' && rest[i] != ')') {
			return false
		}
		i++
	default:
		return false
	}
	return i == len(rest) || rest[i] == ' ' || rest[i] == '\t'
}

// opensFence reports whether l opens a fenced code block: three or more
// backticks or tildes, indented at most three columns (any amount inside a
// list, where the fence belongs to an item), and for backticks an info
// string without backticks.
func opensFence(l []byte, inList bool) (fence, bool) {
	ind, rest := indentation(l)
	if (ind > 3 && !inList) || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return fence{}, false
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 || (c == '`' && bytes.IndexByte(rest[n:], '`') >= 0) {
		return fence{}, false
	}
	return fence{char: c, n: n, indent: ind}, true
}

// closesFence reports whether l closes the fenced code block f: a run of at
// least as many of the same character and nothing after it but white space.
func closesFence(l []byte, f fence, inList bool) bool {
	ind, rest := indentation(l)
	limit := 3
	if inList {
		limit = f.indent + 3
	}
	if ind > limit {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] == f.char {
		n++
	}
	return n >= f.n && isBlank(rest[n:])
}

// rawHTMLKinds are the raw HTML blocks a blank line does not end, with what
// ends them instead.
var rawHTMLKinds = []struct{ open, end string }{
	{"<!--", "-->"},
	{"<pre", "</pre>"},
	{"<script", "</script>"},
	{"<style", "</style>"},
	{"<textarea", "</textarea>"},
}

// opensRawHTML returns what ends the raw HTML block l opens, or "" if l opens
// none or also ends it.
func opensRawHTML(l []byte) string {
	ind, rest := indentation(l)
	if ind > 3 {
		return ""
	}
	for _, k := range rawHTMLKinds {
		if len(rest) < len(k.open) || !strings.EqualFold(string(rest[:len(k.open)]), k.open) {
			continue
		}
		after := rest[len(k.open):]
		if k.open != "<!--" && len(after) > 0 && after[0] != ' ' && after[0] != '>' && after[0] != '\t' {
			continue
		}
		if containsFold(after, k.end) {
			return ""
		}
		return k.end
	}
	return ""
}

func containsFold(l []byte, s string) bool {
	return bytes.Contains(bytes.ToLower(l), []byte(s))
}
