package termimage

import (
	"strconv"
	"strings"
)

// applySGR applies the parameters of one SGR escape (the text between
// "ESC [" and "m") to st. Extended colours may be written with semicolons
// (38;5;n, 38;2;r;g;b) or colons (38:5:n, 38:2::r:g:b).
func applySGR(params string, st *Style) {
	if params == "" {
		*st = Style{}
		return
	}
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		sub := strings.Split(fields[i], ":")
		code := atoi(sub[0])
		switch {
		case code == 0:
			*st = Style{}
		case code == 1:
			st.Bold = true
		case code == 2:
			st.Faint = true
		case code == 3:
			st.Italic = true
		case code == 4:
			// 4:0 turns underline off; 4:1..4:5 are its kinds.
			st.Underline = len(sub) < 2 || atoi(sub[1]) != 0
		case code == 7:
			st.Reverse = true
		case code == 8:
			st.Hidden = true
		case code == 9:
			st.Strike = true
		case code == 21:
			st.Underline = true
		case code == 22:
			st.Bold, st.Faint = false, false
		case code == 23:
			st.Italic = false
		case code == 24:
			st.Underline = false
		case code == 27:
			st.Reverse = false
		case code == 28:
			st.Hidden = false
		case code == 29:
			st.Strike = false
		case code >= 30 && code <= 37:
			st.FG = Color{Mode: ColorIndexed, Index: uint8(code - 30)}
		case code == 38, code == 48, code == 58:
			c, used := extendedColor(sub, fields[i+1:])
			i += used
			switch code {
			case 38:
				st.FG = c
			case 48:
				st.BG = c
			}
		case code == 39:
			st.FG = Color{}
		case code >= 40 && code <= 47:
			st.BG = Color{Mode: ColorIndexed, Index: uint8(code - 40)}
		case code == 49:
			st.BG = Color{}
		case code >= 90 && code <= 97:
			st.FG = Color{Mode: ColorIndexed, Index: uint8(code - 90 + 8)}
		case code >= 100 && code <= 107:
			st.BG = Color{Mode: ColorIndexed, Index: uint8(code - 100 + 8)}
		}
	}
}

// extendedColor reads a 38/48/58 colour. sub holds the colon-separated
// parts of the code's own field; when there are none the colour is in the
// following semicolon-separated fields, and used says how many of those it
// took.
func extendedColor(sub, rest []string) (c Color, used int) {
	if len(sub) > 1 {
		switch atoi(sub[1]) {
		case 5:
			if len(sub) > 2 {
				return Color{Mode: ColorIndexed, Index: byteParam(sub[2])}, 0
			}
		case 2:
			// 38:2:r:g:b or 38:2:colourspace:r:g:b.
			v := sub[2:]
			if len(v) >= 4 {
				v = v[1:]
			}
			if len(v) >= 3 {
				return rgb(v), 0
			}
		}
		return Color{}, 0
	}
	if len(rest) == 0 {
		return Color{}, 0
	}
	switch atoi(rest[0]) {
	case 5:
		if len(rest) > 1 {
			return Color{Mode: ColorIndexed, Index: byteParam(rest[1])}, 2
		}
		return Color{}, len(rest)
	case 2:
		if len(rest) > 3 {
			return rgb(rest[1:4]), 4
		}
		return Color{}, len(rest)
	}
	return Color{}, 1
}

func rgb(v []string) Color {
	return Color{Mode: ColorRGB, R: byteParam(v[0]), G: byteParam(v[1]), B: byteParam(v[2])}
}

// atoi reads a decimal parameter; an empty or bad one is 0, as terminals
// treat it.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return min(n, 1<<16)
}

// byteParam reads a colour component or palette index, clamped to 255.
func byteParam(s string) uint8 { return uint8(min(atoi(s), 255)) }
