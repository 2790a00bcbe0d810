package shell

import (
	"strings"
	"unicode/utf8"
)

// The limits of a command's output as pi keeps it, and so as the model and
// the conversation see it: the last 2000 lines or 50 KB, whichever is less.
const (
	DefaultMaxLines = 2000
	DefaultMaxBytes = 50 * 1024
)

// Limit names the limit that cut a text short.
type Limit uint8

// The limits a Tail can be cut by.
const (
	// NoLimit: the text was not cut.
	NoLimit Limit = iota
	// LineLimit: there were more lines than allowed.
	LineLimit
	// ByteLimit: there were more bytes than allowed.
	ByteLimit
)

// Tail is the end of a text, cut to a number of lines and bytes. Lines are
// counted as pi counts them: the pieces between '\n', except that a final
// newline ends the last line rather than starting an empty one ("a\nb\n"
// is two lines, "" none); bytes are bytes of UTF-8.
type Tail struct {
	// Text is what was kept.
	Text string
	// Truncated says Text is not the whole text.
	Truncated bool
	// By is the limit that was hit first; NoLimit when not Truncated.
	By Limit
	// Lines counts the lines of Text.
	Lines int
	// TotalLines and TotalBytes measure the whole text.
	TotalLines, TotalBytes int
	// LastLineBytes is the length of the whole text's last line.
	LastLineBytes int
	// LastLinePartial says the last line alone was longer than the byte
	// limit and Text holds only its end.
	LastLinePartial bool
	// FullOutputPath names the file holding all of a command's output when
	// Output cut it; "" when there is none or it could not be written.
	FullOutputPath string
}

// CutTail keeps the last whole lines of s that fit both limits, as pi's
// truncateTail does: when s is cut, Text is those lines joined by '\n',
// without the final newline. When the last line alone is longer than
// maxBytes it keeps the end of that line, starting on a character
// boundary, and sets LastLinePartial.
func CutTail(s string, maxLines, maxBytes int) Tail {
	body := strings.TrimSuffix(s, "\n")
	t := Tail{
		Text: s, TotalBytes: len(s),
		LastLineBytes: len(s) - strings.LastIndexByte(s, '\n') - 1,
	}
	if s != "" {
		t.TotalLines = strings.Count(body, "\n") + 1
	}
	t.Lines = t.TotalLines
	if t.TotalLines <= maxLines && len(s) <= maxBytes {
		return t
	}
	t.Truncated, t.By = true, LineLimit
	start, lines, pos := len(body), 0, len(body)
	for lines < maxLines {
		lineStart := strings.LastIndexByte(body[:pos], '\n') + 1
		if len(body)-lineStart > maxBytes {
			t.By = ByteLimit
			if lines == 0 {
				start = len(body) - maxBytes
				for start < len(body) && !utf8.RuneStart(body[start]) {
					start++
				}
				lines = 1
				t.LastLinePartial = true
			}
			break
		}
		start, lines = lineStart, lines+1
		if lineStart == 0 {
			break
		}
		pos = lineStart - 1
	}
	t.Text, t.Lines = body[start:], lines
	return t
}
