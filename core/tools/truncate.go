package tools

import (
	"strconv"
	"strings"
)

// The limits every text result is held to, and the longest grep line shown.
const (
	DefaultMaxLines   = 2000
	DefaultMaxBytes   = 50 * 1024
	GrepMaxLineLength = 500
)

// unlimitedLines is the line limit of results already capped by a count of
// entries; it is JavaScript's Number.MAX_SAFE_INTEGER, which is what pi
// reports as maxLines for them.
const unlimitedLines = 1<<53 - 1

// TruncatedBy names the limit that cut a result short. Empty means it was not
// cut, and encodes as JSON null.
type TruncatedBy string

// The limits a result can be cut by.
const (
	TruncatedByLines TruncatedBy = "lines"
	TruncatedByBytes TruncatedBy = "bytes"
)

// MarshalJSON writes null for a result that was not cut.
func (b TruncatedBy) MarshalJSON() ([]byte, error) {
	if b == "" {
		return []byte("null"), nil
	}
	return []byte(strconv.Quote(string(b))), nil
}

// Truncation describes how a text result was cut to the line and byte
// limits. Its JSON shape is pi's TruncationResult, field for field. Lines are
// counted as pieces between '\n', so text ending in a newline has an empty
// last line; bytes are bytes of UTF-8.
type Truncation struct {
	// Content is the text kept.
	Content string `json:"content"`
	// Truncated reports whether anything was left out.
	Truncated bool `json:"truncated"`
	// TruncatedBy is the limit that was hit first.
	TruncatedBy TruncatedBy `json:"truncatedBy"`
	// TotalLines and TotalBytes measure the whole text.
	TotalLines int `json:"totalLines"`
	TotalBytes int `json:"totalBytes"`
	// OutputLines and OutputBytes measure Content.
	OutputLines int `json:"outputLines"`
	OutputBytes int `json:"outputBytes"`
	// LastLinePartial is set when a tail cut (the bash tool's) kept only
	// the end of a last line longer than the byte limit.
	LastLinePartial bool `json:"lastLinePartial"`
	// FirstLineExceedsLimit is set when a head cut kept nothing because the
	// first line alone is longer than the byte limit.
	FirstLineExceedsLimit bool `json:"firstLineExceedsLimit"`
	// MaxLines and MaxBytes are the limits applied.
	MaxLines int `json:"maxLines"`
	MaxBytes int `json:"maxBytes"`
}

// untruncated describes text that fits both limits.
func untruncated(content string, lines, maxLines, maxBytes int) Truncation {
	return Truncation{
		Content: content, TotalLines: lines, TotalBytes: len(content),
		OutputLines: lines, OutputBytes: len(content), MaxLines: maxLines, MaxBytes: maxBytes,
	}
}

// truncateHead keeps the first whole lines of content that fit both limits.
// It never keeps part of a line: when the first line alone is too long it
// keeps nothing and sets FirstLineExceedsLimit.
func truncateHead(content string, maxLines, maxBytes int) Truncation {
	total := strings.Count(content, "\n") + 1
	if total <= maxLines && len(content) <= maxBytes {
		return untruncated(content, total, maxLines, maxBytes)
	}
	t := Truncation{
		Truncated: true, TruncatedBy: TruncatedByLines, TotalLines: total, TotalBytes: len(content),
		MaxLines: maxLines, MaxBytes: maxBytes,
	}
	firstEnd := strings.IndexByte(content, '\n')
	if firstEnd < 0 {
		firstEnd = len(content)
	}
	if firstEnd > maxBytes {
		t.TruncatedBy = TruncatedByBytes
		t.FirstLineExceedsLimit = true
		return t
	}
	end, lines, pos := 0, 0, 0
	for lines < maxLines {
		lineEnd := len(content)
		if i := strings.IndexByte(content[pos:], '\n'); i >= 0 {
			lineEnd = pos + i
		}
		if lineEnd > maxBytes {
			t.TruncatedBy = TruncatedByBytes
			break
		}
		end, lines = lineEnd, lines+1
		if lineEnd == len(content) {
			break
		}
		pos = lineEnd + 1
	}
	t.Content = content[:end]
	t.OutputLines, t.OutputBytes = lines, end
	return t
}

// truncateLine shortens a line to maxChars characters, marking the cut.
func truncateLine(line string, maxChars int) (string, bool) {
	if len(line) <= maxChars {
		return line, false
	}
	n := 0
	for i := range line {
		if n == maxChars {
			return line[:i] + "... [truncated]", true
		}
		n++
	}
	return line, false
}

// formatSize writes a byte count the way pi does: 512B, 50.0KB, 1.5MB.
func formatSize(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + "B"
	case n < 1024*1024:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + "KB"
	default:
		return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + "MB"
	}
}
