// Package escape finds the terminal escape sequences in text: the colours,
// cursor moves, titles and hyperlinks that programs write for a terminal
// (ECMA-48 and its xterm extensions). It is the one scanner of them for
// text held as a string: the shell runner's clean-up for the model, the
// HTML export and the markdown renderer's trimming all use it. A terminal
// model that reads a byte stream a piece at a time (bashmode's) needs a
// state machine instead and keeps its own.
//
// Visible and VisibleLines go the other way for text a model wrote that a
// person is shown (approval questions, tool previews, titles): every
// control character is written as a visible escape, so none acts on the
// display.
package escape

// ESC is the byte that starts every escape sequence.
const ESC = 0x1b

// Len returns the length of the escape sequence at the start of s, or 0
// when s does not start with ESC. It knows:
//   - CSI, ESC [ parameters and intermediates up to a final byte 0x40-0x7e
//     (colours, cursor moves, erasing);
//   - the string sequences OSC (ESC ]), DCS (ESC P), SOS (ESC X), PM (ESC ^)
//     and APC (ESC _), up to a terminator: BEL or ST (ESC \);
//   - ESC with intermediate bytes 0x20-0x2f and one final byte (ESC ( B,
//     which selects a character set) and the two-byte escapes (ESC 7, ESC M).
//     Where the final byte should be, a control character, another ESC or a
//     non-ASCII byte ends the sequence before it.
//
// A sequence cut off by the end of s runs to the end of s, so the result is
// never more than len(s). Len is small enough to inline: text without ESC
// costs a comparison a byte.
func Len(s string) int {
	if len(s) == 0 || s[0] != ESC {
		return 0
	}
	return sequenceLen(s)
}

// sequenceLen is Len for s starting with ESC.
func sequenceLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == ESC && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	// No final byte: a control character or another ESC interrupts the
	// sequence, as in a terminal, and is left for the caller.
	return i
}
