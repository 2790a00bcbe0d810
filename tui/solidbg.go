package tui

import "strings"

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
	b.Grow(len(frame) + len(frame)/8)
	var bg, concealed bool
	for i := 0; i < len(frame); {
		c := frame[i]
		switch {
		case c == ' ' && bg && !concealed:
			j := i
			for j < len(frame) && frame[j] == ' ' {
				j++
			}
			b.WriteString(sgrConceal)
			b.WriteString(frame[i:j])
			b.WriteString(sgrUnconceal)
			i = j
		case c == 0x1b:
			n := escapeLen(frame[i:])
			seq := frame[i : i+n]
			if n >= 3 && seq[1] == '[' && seq[n-1] == 'm' {
				bg, concealed = applySGR(seq[2:n-1], bg, concealed)
			}
			b.WriteString(seq)
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC): a CSI up to its final byte, an OSC, DCS, APC, PM or SOS
// string up to BEL or ST, or ESC and one more byte. An unfinished sequence
// runs to the end of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// applySGR returns the background and conceal state after an SGR escape
// with params (the text between "ESC [" and "m").
func applySGR(params string, bg, concealed bool) (bool, bool) {
	if params == "" {
		return false, false
	}
	fields := strings.Split(params, ";")
	for k := 0; k < len(fields); k++ {
		f := fields[k]
		// A colon form ("48:5:236", "48:2::1:2:3") is one field.
		if head, _, ok := strings.Cut(f, ":"); ok {
			f = head
			if f == "38" || f == "48" || f == "58" {
				if f == "48" {
					bg = true
				}
				continue
			}
		}
		switch f {
		case "", "0":
			bg, concealed = false, false
		case "8":
			concealed = true
		case "28":
			concealed = false
		case "49":
			bg = false
		case "38", "48", "58":
			if f == "48" {
				bg = true
			}
			// Skip the colour's own fields: "5;n" or "2;r;g;b".
			if k+1 < len(fields) {
				switch fields[k+1] {
				case "5":
					k += 2
				case "2":
					k += 4
				default:
					k++
				}
			}
		default:
			if len(f) == 2 && f[0] == '4' && f[1] >= '0' && f[1] <= '7' ||
				len(f) == 3 && f[0] == '1' && f[1] == '0' && f[2] >= '0' && f[2] <= '7' {
				bg = true
			}
		}
	}
	return bg, concealed
}
