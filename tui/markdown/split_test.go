package markdown

import (
	"slices"
	"testing"
)

// splitAll feeds text to a splitter n bytes at a time and returns the
// finished blocks and the open tail.
func splitAll(text string, n int) (blocks []string, tail string) {
	var s splitter
	buf := []byte{}
	for i := 0; i < len(text); i += n {
		buf = append(buf, text[i:min(i+n, len(text))]...)
		s.scan(buf)
	}
	for _, b := range s.closed {
		blocks = append(blocks, string(buf[b.start:b.end]))
	}
	return blocks, string(buf[s.tailStart():])
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		blocks []string
		tail   string
	}{
		{
			name:   "paragraphs",
			text:   "one\ntwo\n\nthree\n\nfour\n",
			blocks: []string{"one\ntwo", "three"},
			tail:   "four\n",
		},
		{
			name:   "blank lines holding spaces and tabs",
			text:   "one\n  \t \n\t\nthree\n",
			blocks: []string{"one"},
			tail:   "three\n",
		},
		{
			name:   "block stays open until the next block starts",
			text:   "one\n\n\n",
			blocks: nil,
			tail:   "one\n\n\n",
		},
		{
			name:   "backtick fence keeps its blank lines",
			text:   "```go\na\n\nb\n```\n\nafter\n",
			blocks: []string{"```go\na\n\nb\n```"},
			tail:   "after\n",
		},
		{
			name:   "tilde fence",
			text:   "~~~\na\n\n~~~\n\nafter\n",
			blocks: []string{"~~~\na\n\n~~~"},
			tail:   "after\n",
		},
		{
			name:   "longer fence holds a shorter one",
			text:   "````md\n```\n\nx\n```\n\n````\n\nafter\n",
			blocks: []string{"````md\n```\n\nx\n```\n\n````"},
			tail:   "after\n",
		},
		{
			name:   "tilde does not close backticks",
			text:   "```\na\n~~~\n\nb\n```\n\nafter\n",
			blocks: []string{"```\na\n~~~\n\nb\n```"},
			tail:   "after\n",
		},
		{
			name:   "closing fence with trailing text does not close",
			text:   "```\na\n``` x\n\nb\n```\n\nafter\n",
			blocks: []string{"```\na\n``` x\n\nb\n```"},
			tail:   "after\n",
		},
		{
			name:   "unclosed fence stays the tail",
			text:   "intro\n\n```py\ndef f():\n\n    pass\n",
			blocks: []string{"intro"},
			tail:   "```py\ndef f():\n\n    pass\n",
		},
		{
			name:   "backticks in the info string make inline code, not a fence",
			text:   "``` a`b\n\nnext\n",
			blocks: []string{"``` a`b"},
			tail:   "next\n",
		},
		{
			name:   "fence indented four spaces is indented code",
			text:   "para\n\n    ```\n\nnext\n",
			blocks: []string{"para\n\n    ```"},
			tail:   "next\n",
		},
		{
			name:   "loose list is one block",
			text:   "- a\n\n- b\n\n1. c\n\nafter\n",
			blocks: []string{"- a\n\n- b\n\n1. c"},
			tail:   "after\n",
		},
		{
			name:   "list item content continues after a blank line",
			text:   "1. step\n\n   ```sh\n   make\n\n   ```\n\n   more\n\nafter\n",
			blocks: []string{"1. step\n\n   ```sh\n   make\n\n   ```\n\n   more"},
			tail:   "after\n",
		},
		{
			name:   "list introduced by a paragraph",
			text:   "Steps:\n- a\n\n- b\n\nend\n",
			blocks: []string{"Steps:\n- a\n\n- b"},
			tail:   "end\n",
		},
		{
			name:   "paragraph after a list ends it",
			text:   "- a\n- b\n\npara\n\n- c\n",
			blocks: []string{"- a\n- b", "para"},
			tail:   "- c\n",
		},
		{
			name:   "headings",
			text:   "# Title\ntext\n\n## Sub\n\nbody\n",
			blocks: []string{"# Title\ntext", "## Sub"},
			tail:   "body\n",
		},
		{
			name:   "html comment spans blank lines",
			text:   "<!-- a\n\nb -->\n\nnext\n",
			blocks: []string{"<!-- a\n\nb -->"},
			tail:   "next\n",
		},
		{
			name:   "one-line html comment",
			text:   "<!-- a -->\n\nnext\n",
			blocks: []string{"<!-- a -->"},
			tail:   "next\n",
		},
		{
			name:   "pre block spans blank lines",
			text:   "<pre>\nx\n\ny\n</pre>\n\nnext\n",
			blocks: []string{"<pre>\nx\n\ny\n</pre>"},
			tail:   "next\n",
		},
		{
			name:   "CRLF line endings",
			text:   "one\r\n\r\n```\r\na\r\n\r\n```\r\n\r\ntwo\r\n",
			blocks: []string{"one", "```\r\na\r\n\r\n```"},
			tail:   "two\r\n",
		},
		{
			// A partial line after a blank line that can only start a
			// new block ends the block before it at once.
			name:   "partial line that starts a block ends the one before",
			text:   "one\n\ntw",
			blocks: []string{"one"},
			tail:   "tw",
		},
		{
			// An indented one might still continue it (list content,
			// indented code): the block stays open until it is complete.
			name:   "partial indented line keeps the block before it open",
			text:   "one\n\n  tw",
			blocks: nil,
			tail:   "one\n\n  tw",
		},
		{
			name:   "partial list marker keeps a list open",
			text:   "- a\n\n1",
			blocks: nil,
			tail:   "- a\n\n1",
		},
		{
			name:   "partial text after a list ends it",
			text:   "- a\n\nx",
			blocks: []string{"- a"},
			tail:   "x",
		},
		{
			name:   "partial line inside a fence is code",
			text:   "```\na\n\nb",
			blocks: nil,
			tail:   "```\na\n\nb",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{len(tt.text), 1, 3} {
				blocks, tail := splitAll(tt.text, n)
				if !slices.Equal(blocks, tt.blocks) || tail != tt.tail {
					t.Errorf("fed %d bytes at a time:\nblocks %q\ntail   %q\nwant\nblocks %q\ntail   %q",
						n, blocks, tail, tt.blocks, tt.tail)
				}
			}
		})
	}
}

func TestOpenBlockClosesFence(t *testing.T) {
	tests := []struct{ text, want string }{
		{"```go\nx := 1\n", "```go\nx := 1\n```\n"},
		{"```go\nx := 1", "```go\nx := 1\n```\n"},
		{"  ~~~~\nx\n", "  ~~~~\nx\n  ~~~~\n"},
		// The partial line is the closing fence itself: no second fence.
		{"```\nx\n```", "```\nx\n```"},
		{"```\nx\n```\n", "```\nx\n```\n"},
		{"plain text", "plain text"},
	}
	for _, tt := range tests {
		var s Stream
		s.Append(tt.text)
		if got := string(s.tailSource()); got != tt.want {
			t.Errorf("tailSource(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// FuzzSplitterClosesOnlyFinishedBlocks feeds a text in two parts and wants
// the blocks closed after the first part to be the first blocks closed
// after the whole text: a block closed while a line was still incomplete
// must be one that the complete text closes the same way.
func FuzzSplitterClosesOnlyFinishedBlocks(f *testing.F) {
	f.Add("one\n\ntwo\n", 6)
	f.Add("- a\n\n- b\n\nc\n", 7)
	f.Add("para\n\n  code\n\nnext\n", 7)
	f.Add("```\nx\n\ny\n```\n\nz", 5)
	f.Add("<!--\n\n-->\n\nx", 3)
	f.Fuzz(func(t *testing.T, text string, cut int) {
		if len(text) == 0 {
			return
		}
		cut = (cut%len(text) + len(text)) % len(text)
		var part, whole splitter
		part.scan([]byte(text[:cut]))
		early := slices.Clone(part.closed)
		part.scan([]byte(text))
		whole.scan([]byte(text))
		if !slices.Equal(part.closed, whole.closed) {
			t.Fatalf("fed in two parts at %d: %v, at once: %v", cut, part.closed, whole.closed)
		}
		if len(early) > len(whole.closed) || !slices.Equal(early, whole.closed[:len(early)]) {
			t.Fatalf("closed %v after %q, but the whole text closes %v", early, text[:cut], whole.closed)
		}
	})
}
