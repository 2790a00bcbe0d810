package editor

import (
	"maps"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// A paste longer than pasteMaxLines lines or pasteMaxChars characters is
// kept aside and shown as a one-line marker.
const (
	pasteMaxLines = 10
	pasteMaxChars = 1000
)

// tabWidth is how many cells a tab takes on screen. Tabs stay tabs in the
// text; only their display is widened.
const tabWidth = 4

// A paste marker is a single rune of Unicode's Supplementary Private Use
// Area-A standing in the buffer for the paste it names. Being one rune, it
// moves, wraps and deletes as a unit, and text that merely looks like a
// marker ("[paste #1 +12 lines]" typed or pasted) stays plain text. Runes
// of that area arriving as input are replaced by U+FFFD so they can never
// be taken for markers.
const (
	markerFirst rune = 0xF0000
	markerLast  rune = 0xFFFFD
)

func isMarker(r rune) bool { return r >= markerFirst && r <= markerLast }

// paste is a large paste or an attached image kept out of the buffer. An
// image's text is its label, so the draft's text names it where it stands.
type paste struct {
	text  string
	label string
	image *Image
}

// pastes holds the large pastes and the images of the current draft, keyed
// by marker rune. Pastes and images are each numbered from 1 in each draft.
type pastes struct {
	byMarker map[rune]paste
	markers  int // markers handed out
	next     int // pastes numbered
	images   int // images numbered
}

func (p *pastes) reset() { *p = pastes{} }

// add stores text and returns the marker rune that stands for it.
func (p *pastes) add(text string, lines, chars int) rune {
	p.next++
	return p.put(paste{text: text, label: pasteLabel(p.next, lines, chars)})
}

// put stores q under a new marker rune and returns the rune.
func (p *pastes) put(q paste) rune {
	p.markers++
	r := markerFirst + rune(p.markers-1)
	if r > markerLast {
		// Past 65,534 markers in one draft, the newest reuses the last one.
		r = markerLast
	}
	if p.byMarker == nil {
		p.byMarker = map[rune]paste{}
	}
	p.byMarker[r] = q
	return r
}

func (p *pastes) clone() pastes {
	c := *p
	c.byMarker = maps.Clone(p.byMarker)
	return c
}

// label returns the text shown for marker r.
func (p *pastes) label(r rune) string {
	if q, ok := p.byMarker[r]; ok {
		return q.label
	}
	return "[paste]"
}

// expand writes r to sb, replacing a marker by its paste.
func (p *pastes) expand(sb *strings.Builder, r rune) {
	if isMarker(r) {
		sb.WriteString(p.byMarker[r].text)
		return
	}
	sb.WriteRune(r)
}

// cellWidth is the display width of a buffer rune.
func (p *pastes) cellWidth(r rune) int {
	switch {
	case r < utf8.RuneSelf && r >= ' ':
		return 1
	case r == '\t':
		return tabWidth
	case isMarker(r):
		return len(p.label(r))
	}
	return runewidth.RuneWidth(r)
}

// pasteSize measures text as shown in a marker: its line count (a final
// line break does not start a new line) and its character count.
func pasteSize(text string) (lines, chars int) {
	lines = strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	return lines, utf8.RuneCountInString(text)
}

func isLargePaste(lines, chars int) bool {
	return lines > pasteMaxLines || chars > pasteMaxChars
}

// pasteLabel names paste n by its line count when it has many lines, by its
// character count otherwise: "[paste #1 +120 lines]", "[paste #2 1,342 chars]".
func pasteLabel(n, lines, chars int) string {
	if lines > pasteMaxLines {
		return "[paste #" + strconv.Itoa(n) + " +" + strconv.Itoa(lines) + " lines]"
	}
	return "[paste #" + strconv.Itoa(n) + " " + thousands(chars) + " chars]"
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// normalizeNewlines turns CRLF and lone CR into LF: terminals send either
// for a line break, and a prompt should not carry carriage returns.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// sanitize prepares input text for the buffer: line breaks normalised, tabs
// kept, other control characters dropped, invalid UTF-8 and marker-area
// runes replaced by U+FFFD.
func sanitize(s string) []rune {
	s = normalizeNewlines(s)
	out := make([]rune, 0, len(s))
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			out = append(out, r)
		case isMarker(r):
			out = append(out, utf8.RuneError)
		case unicode.IsControl(r):
		default:
			out = append(out, r)
		}
	}
	return out
}
