package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi/parser"
)

// Concealed spaces keep a background colour on screen without relying on
// the terminal's background-colour erase (bce).
//
// Bubble Tea's renderer writes a run of blank cells as an erase (EL to the
// end of the line, ECH in the middle) whenever the blanks carry no
// underline, reverse or link, whatever their background: it assumes the
// terminal fills erased cells with the current background. Terminals
// without bce (GNU screen by default, the Linux console in some set-ups)
// fill them with the default background instead, and tmux keeps the colour
// on screen but drops the erased cells from capture-pane and so from every
// copy of the pane's text; a tool box or a message drawn with a background
// then ends wherever its text ends, ragged. A concealed space is not blank
// to the renderer, so it is written as a space and carries its background
// itself; it looks exactly like a space on every terminal.
const (
	sgrConceal   = "\x1b[8m"
	sgrUnconceal = "\x1b[28m"
)

// solidBackgrounds returns frame with every run of spaces that sits on a
// background colour set by an SGR escape wrapped in conceal and unconceal
// (see above). Spaces on the default background, text and every other
// escape (CSI, OSC, such as hyperlinks, and two-byte ones) pass through
// unchanged, as do spaces the frame itself conceals. The pen (background
// and conceal) carries over line breaks, as the renderer reads the frame.
func solidBackgrounds(frame string) string {
	if !strings.Contains(frame, "\x1b[") {
		return frame
	}
	var b strings.Builder
	last := 0 // frame[last:] is still to be copied
	var bg, concealed bool
	for i := 0; i < len(frame); {
		// The text up to the next escape.
		end := len(frame)
		if k := strings.IndexByte(frame[i:], 0x1b); k >= 0 {
			end = i + k
		}
		for bg && !concealed && i < end {
			k := strings.IndexByte(frame[i:end], ' ')
			if k < 0 {
				break
			}
			i += k
			j := i
			for j < end && frame[j] == ' ' {
				j++
			}
			if last == 0 {
				b.Grow(len(frame) + len(frame)/4)
			}
			b.WriteString(frame[last:i])
			b.WriteString(sgrConceal)
			b.WriteString(frame[i:j])
			b.WriteString(sgrUnconceal)
			i, last = j, j
		}
		if end == len(frame) {
			break
		}
		n := escapeLen(frame[end:])
		if n >= 3 && frame[end+1] == '[' && frame[end+n-1] == 'm' {
			bg, concealed = applySGR(frame[end+2:end+n-1], bg, concealed)
		}
		i = end + n
	}
	if last == 0 {
		return frame
	}
	b.WriteString(frame[last:])
	return b.String()
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC), read with the terminal parser's own state table (the
// one Bubble Tea's renderer and ansi.Strip read the frame with): up to
// where the parser is back on the ground, so an ESC inside a sequence, a
// control within it, an OSC ended by BEL or ST are all as the terminal
// takes them. An unfinished sequence runs to the end of s.
func escapeLen(s string) int {
	state := parser.GroundState
	for j := 0; j < len(s); j++ {
		state, _ = parser.Table.Transition(state, s[j])
		if state == parser.GroundState {
			return j + 1
		}
	}
	return len(s)
}

// applySGR returns the background and conceal state after an SGR escape
// with params (the text between "ESC [" and "m").
func applySGR(params string, bg, concealed bool) (bool, bool) {
	if params == "" {
		return false, false
	}
	// skip counts the fields of a colour still to pass over ("5;n" or
	// "2;r;g;b" after 38, 48 or 58).
	skip, colour := 0, false
	// Every field counts, an empty one too ("40;" is 40 then 0, a reset).
	for more := true; more; {
		var f string
		f, params, more = strings.Cut(params, ";")
		if skip > 0 {
			skip--
			continue
		}
		if colour {
			colour = false
			switch f {
			case "5":
				skip = 1
			case "2":
				skip = 3
			}
			continue
		}
		// A colon form ("48:5:236", "48:2::1:2:3") is one field.
		head, _, sub := strings.Cut(f, ":")
		switch head {
		case "", "0":
			if !sub {
				bg, concealed = false, false
			}
		case "8":
			concealed = true
		case "28":
			concealed = false
		case "49":
			bg = false
		case "38", "48", "58":
			if head == "48" {
				bg = true
			}
			colour = !sub
		default:
			if len(head) == 2 && head[0] == '4' && head[1] >= '0' && head[1] <= '7' ||
				len(head) == 3 && head[0] == '1' && head[1] == '0' && head[2] >= '0' && head[2] <= '7' {
				bg = true
			}
		}
	}
	return bg, concealed
}
