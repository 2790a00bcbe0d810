package markdown

import (
	"strings"

	"github.com/cairn-dev/cairn/core/escape"
)

// sgrState is the part of the terminal's graphic rendition that decides
// whether a space is visible: a space under a background colour, reverse
// video, underline, strikethrough or overline shows; any other space does
// not.
type sgrState struct {
	background, reverse, underline, strike, overline bool
	// set says some attribute may be on, so a reset changes something.
	set bool
	// pen is the SGR sequences written since the last reset, or
	// unknownPen once that grows too long to compare.
	pen string
}

// unknownPen marks a pen that is not tracked; it equals no real pen.
const unknownPen = "\x00"

// maxPen bounds the pen kept for comparison.
const maxPen = 256

// applySeq updates s for the SGR sequence seq with parameters params.
func (s *sgrState) applySeq(seq, params string) {
	pen := s.pen
	s.apply(params)
	switch {
	case !s.set:
		s.pen = ""
	case hasResetParam(params):
		s.pen = seq
	case pen == unknownPen || len(pen)+len(seq) > maxPen:
		s.pen = unknownPen
	default:
		s.pen = pen + seq
	}
}

// hasResetParam reports whether the SGR parameters contain a reset.
func hasResetParam(params string) bool {
	if params == "" {
		return true
	}
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		if p == "" || p == "0" {
			return true
		}
	}
	return false
}

func (s sgrState) spaceVisible() bool {
	return s.background || s.reverse || s.underline || s.strike || s.overline
}

// apply updates the attributes of s for one SGR sequence's parameter string
// ("38;5;252"); applySeq keeps the pen as well.
func (s *sgrState) apply(params string) {
	if params == "" {
		*s = sgrState{}
		return
	}
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		// A parameter with sub-parameters ("4:3", "38:2::1:2:3") is one
		// attribute; only its leading number matters here.
		code, _, _ := strings.Cut(p, ":")
		switch code {
		case "", "0":
			*s = sgrState{}
			continue
		case "38", "48", "58":
			if !strings.Contains(p, ":") {
				params = skipColorParams(params)
			}
			if code == "48" {
				s.background = true
			}
		case "4", "21":
			s.underline = true
		case "24":
			s.underline = false
		case "7":
			s.reverse = true
		case "27":
			s.reverse = false
		case "9":
			s.strike = true
		case "29":
			s.strike = false
		case "53":
			s.overline = true
		case "55":
			s.overline = false
		case "49":
			s.background = false
		default:
			if isBackgroundCode(code) {
				s.background = true
			}
		}
		s.set = true
	}
}

// skipColorParams drops the arguments of an extended colour ("5;n" or
// "2;r;g;b") from the front of params.
func skipColorParams(params string) string {
	kind, rest, _ := strings.Cut(params, ";")
	n := 0
	switch kind {
	case "5":
		n = 1
	case "2":
		n = 3
	}
	for ; n > 0 && rest != ""; n-- {
		_, rest, _ = strings.Cut(rest, ";")
	}
	return rest
}

func isBackgroundCode(code string) bool {
	if len(code) == 2 && code[0] == '4' && code[1] >= '0' && code[1] <= '7' {
		return true
	}
	return len(code) == 3 && code[0] == '1' && code[1] == '0' && code[2] >= '0' && code[2] <= '7'
}

// sgrParams reports whether the escape sequence seq is an SGR sequence and
// returns its parameters.
func sgrParams(seq string) (string, bool) {
	if len(seq) >= 3 && seq[1] == '[' && seq[len(seq)-1] == 'm' {
		return seq[2 : len(seq)-1], true
	}
	return "", false
}

// stripTrailing removes the invisible spaces glamour pads every line with,
// keeping the text's look intact: spaces that show (under a background, for
// instance) stay, hyperlink ends stay, and a line that leaves attributes on
// still ends with a reset. Runs of SGR sequences that end in a reset, which
// glamour writes around empty strings, shrink to that reset or vanish, so a
// line with nothing visible becomes empty. Graphic state is followed across
// lines, as a terminal would.
func stripTrailing(s string) string {
	var b strings.Builder
	b.Grow(len(s) / 2)
	var st sgrState
	for {
		line, rest, more := strings.Cut(s, "\n")
		st = stripLine(&b, line, st)
		if !more {
			break
		}
		b.WriteByte('\n')
		s = rest
	}
	return b.String()
}

// stripLine writes line without its invisible tail to b. st is the graphic
// state at the start of the line; stripLine returns the state at its end.
func stripLine(b *strings.Builder, line string, st sgrState) sgrState {
	// First pass: find where the last visible cell ends.
	keep := 0
	cur := st
	for i := 0; i < len(line); {
		if n := escape.Len(line[i:]); n > 0 {
			if p, ok := sgrParams(line[i : i+n]); ok {
				cur.applySeq(line[i:i+n], p)
			}
			i += n
			continue
		}
		i++
		if line[i-1] != ' ' || cur.spaceVisible() {
			keep = i
		}
	}

	// Second pass: copy the cells up to keep, collapsing runs of escape
	// sequences; past keep only escape sequences are left, and they form a
	// single run.
	cur = st
	runStart := -1
	for i := 0; i < len(line); {
		if n := escape.Len(line[i:]); n > 0 {
			if runStart < 0 {
				runStart = i
			}
			i += n
			continue
		}
		if i >= keep {
			i++ // an invisible space in the tail
			continue
		}
		if runStart >= 0 {
			cur = writeRun(b, line[runStart:i], cur, false)
			runStart = -1
		}
		b.WriteByte(line[i])
		i++
	}
	if runStart >= 0 {
		cur = writeRun(b, line[runStart:], cur, true)
	}
	return cur
}

// writeRun writes a run of escape sequences, which may have invisible
// spaces between them when spaced is true, and returns the graphic state
// after it. st is the state before the run. SGR sequences up to the run's
// last reset have no effect beyond that reset, so they are replaced by one
// reset, or by nothing if nothing was on before; the sequences after the
// reset and all other sequences (hyperlinks) are kept in order.
func writeRun(b *strings.Builder, run string, st sgrState, spaced bool) sgrState {
	after := st
	lastReset, anySGR := -1, false
	for i := 0; i < len(run); {
		n := escape.Len(run[i:])
		if n == 0 {
			i++
			continue
		}
		if p, ok := sgrParams(run[i : i+n]); ok {
			after.applySeq(run[i:i+n], p)
			anySGR = true
			if isReset(p) {
				lastReset = i
			}
		}
		i += n
	}
	if anySGR && after.pen == st.pen && st.pen != unknownPen {
		// The run leaves the pen as it found it, as in "reset, set the
		// same colour again" between two words: only its other
		// sequences matter.
		lastReset = len(run)
		st.set = false
	}
	for i := 0; i < len(run); {
		n := escape.Len(run[i:])
		if n == 0 {
			if !spaced {
				b.WriteByte(run[i])
			}
			i++
			continue
		}
		seq := run[i : i+n]
		if _, ok := sgrParams(seq); !ok || i > lastReset {
			b.WriteString(seq)
		}
		if i == lastReset && st.set {
			b.WriteString("\x1b[m")
		}
		i += n
	}
	return after
}

// isReset reports whether the SGR parameters p turn every attribute off.
func isReset(p string) bool {
	probe := sgrState{set: true}
	probe.apply(p)
	return !probe.set
}

// trimBlankLines drops empty lines at the start and end of s and the final
// newline.
func trimBlankLines(s string) string {
	for strings.HasPrefix(s, "\n") {
		s = s[1:]
	}
	return strings.TrimRight(s, "\n")
}
