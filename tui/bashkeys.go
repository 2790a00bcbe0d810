package tui

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/bashmode"
)

// csiKeys are the named keys a terminal sends as ESC [ ... final, with the
// parameter xterm puts before any modifier (0 for none).
var csiKeys = map[rune]struct {
	param int
	final byte
}{
	tea.KeyUp: {0, 'A'}, tea.KeyDown: {0, 'B'}, tea.KeyRight: {0, 'C'}, tea.KeyLeft: {0, 'D'},
	tea.KeyHome: {0, 'H'}, tea.KeyEnd: {0, 'F'},
	tea.KeyKpUp: {0, 'A'}, tea.KeyKpDown: {0, 'B'}, tea.KeyKpRight: {0, 'C'}, tea.KeyKpLeft: {0, 'D'},
	tea.KeyKpHome: {0, 'H'}, tea.KeyKpEnd: {0, 'F'},
	tea.KeyInsert: {2, '~'}, tea.KeyDelete: {3, '~'}, tea.KeyPgUp: {5, '~'}, tea.KeyPgDown: {6, '~'},
	tea.KeyKpInsert: {2, '~'}, tea.KeyKpDelete: {3, '~'}, tea.KeyKpPgUp: {5, '~'}, tea.KeyKpPgDown: {6, '~'},
	tea.KeyF1: {0, 'P'}, tea.KeyF2: {0, 'Q'}, tea.KeyF3: {0, 'R'}, tea.KeyF4: {0, 'S'},
	tea.KeyF5: {15, '~'}, tea.KeyF6: {17, '~'}, tea.KeyF7: {18, '~'}, tea.KeyF8: {19, '~'},
	tea.KeyF9: {20, '~'}, tea.KeyF10: {21, '~'}, tea.KeyF11: {23, '~'}, tea.KeyF12: {24, '~'},
}

// keyBytes is what an xterm-like terminal sends to a program for k, given
// the modes the program has set; nil for keys a terminal sends nothing for
// (modifier keys alone, media keys).
func keyBytes(k tea.KeyPressMsg, modes bashmode.InputModes) []byte {
	if seq, ok := csiKeys[k.Code]; ok {
		return csiKeyBytes(seq.param, seq.final, k.Mod, modes)
	}
	var b []byte
	if k.Mod.Contains(tea.ModAlt) {
		b = append(b, 0x1b) // meta sends escape first
	}
	switch k.Code {
	case tea.KeyEnter, tea.KeyKpEnter:
		return append(b, '\r')
	case tea.KeyTab:
		if k.Mod.Contains(tea.ModShift) {
			return append(b, "\x1b[Z"...)
		}
		return append(b, '\t')
	case tea.KeyBackspace:
		if k.Mod.Contains(tea.ModCtrl) {
			return append(b, 0x08)
		}
		return append(b, 0x7f)
	case tea.KeyEscape:
		return append(b, 0x1b)
	}
	if k.Mod.Contains(tea.ModCtrl) {
		if c, ok := ctrlByte(k.Code); ok {
			return append(b, c)
		}
		return nil
	}
	if k.Text != "" {
		return append(b, k.Text...)
	}
	r := k.Code
	if k.Mod.Contains(tea.ModShift) {
		r = k.ShiftedCode
		if r == 0 {
			r = unicode.ToUpper(k.Code)
		}
	}
	if r > utf8.MaxRune || !unicode.IsPrint(r) {
		return nil
	}
	return utf8.AppendRune(b, r)
}

// csiKeyBytes encodes a cursor, editing or function key: ESC [ final (or
// ESC O final for arrows, home and end in application cursor mode, and for
// F1-F4), or ESC [ param ; modifier final when shift, alt or ctrl is held.
func csiKeyBytes(param int, final byte, mod tea.KeyMod, modes bashmode.InputModes) []byte {
	m := 1
	if mod.Contains(tea.ModShift) {
		m += 1
	}
	if mod.Contains(tea.ModAlt) {
		m += 2
	}
	if mod.Contains(tea.ModCtrl) {
		m += 4
	}
	b := []byte{0x1b}
	switch {
	case m > 1:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(max(param, 1)), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(m), 10)
	case param > 0:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(param), 10)
	case final >= 'P' && final <= 'S' || modes.AppCursor:
		b = append(b, 'O')
	default:
		b = append(b, '[')
	}
	return append(b, final)
}

// ctrlByte is the control character ctrl+r sends: ctrl+a is 0x01, ctrl+@
// and ctrl+space 0x00, ctrl+[ escape, ctrl+? delete.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r-'a') + 1, true
	case r >= '@' && r <= '_':
		return byte(r - '@'), true
	case r == ' ' || r == '2':
		return 0, true
	case r >= '3' && r <= '7':
		return byte(r-'3') + 0x1b, true
	case r == '8' || r == '?':
		return 0x7f, true
	case r == '/':
		return 0x1f, true
	}
	return 0, false
}
