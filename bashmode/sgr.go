package bashmode

import "strconv"

// Attribute bits of a style.
const (
	attrBold uint16 = 1 << iota
	attrFaint
	attrItalic
	attrBlink
	attrRapidBlink
	attrReverse
	attrConceal
	attrStrike
	attrOverline
)

// color is a colour as SGR sets it: zero is the terminal's default, the top
// byte says which palette the low bytes index.
type color uint32

const (
	colorBasic   color = 1 << 24 // the 16 ANSI colours, 0-15
	colorIndexed color = 2 << 24 // the 256-colour palette
	colorRGB     color = 3 << 24 // 24-bit colour, 0xRRGGBB
	colorKind    color = 0xff << 24
)

// style is the graphic rendition that SGR sequences set: everything that
// decides how a character looks, in a canonical form so two equal looks
// compare equal.
type style struct {
	attrs     uint16
	underline uint8 // 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed
	fg, bg    color
	ulColor   color
}

// sgrParam is one number of an SGR sequence; sub marks a colon-separated
// sub-parameter of the number before it.
type sgrParam struct {
	v   int
	sub bool
}

// maxSGRParams bounds how many numbers of one sequence are read; the rest
// are ignored.
const maxSGRParams = 32

// parseSGRParams splits the parameter bytes of CSI ... m into numbers. An
// empty parameter reads as 0.
func parseSGRParams(seq []byte, out *[maxSGRParams]sgrParam) []sgrParam {
	ps := out[:0]
	cur, sub := 0, false
	for _, c := range seq {
		switch {
		case c >= '0' && c <= '9':
			if cur < 1<<20 {
				cur = cur*10 + int(c-'0')
			}
		case c == ';' || c == ':':
			if len(ps) < maxSGRParams {
				ps = append(ps, sgrParam{cur, sub})
			}
			cur, sub = 0, c == ':'
		}
	}
	if len(ps) < maxSGRParams {
		ps = append(ps, sgrParam{cur, sub})
	}
	return ps
}

// applySGR updates st with the parameters of one SGR sequence.
func applySGR(st *style, seq []byte) {
	var buf [maxSGRParams]sgrParam
	ps := parseSGRParams(seq, &buf)
	for i := 0; i < len(ps); i++ {
		p := ps[i].v
		j := i + 1
		for j < len(ps) && ps[j].sub {
			j++
		}
		subs := ps[i+1 : j]
		switch {
		case p == 0:
			*st = style{}
		case p == 4:
			st.underline = 1
			if len(subs) > 0 {
				st.underline = uint8(min(subs[0].v, 5))
			}
		case p == 21:
			st.underline = 2
		case p == 24:
			st.underline = 0
		case p >= 30 && p <= 37:
			st.fg = colorBasic | color(p-30)
		case p >= 90 && p <= 97:
			st.fg = colorBasic | color(p-90+8)
		case p >= 40 && p <= 47:
			st.bg = colorBasic | color(p-40)
		case p >= 100 && p <= 107:
			st.bg = colorBasic | color(p-100+8)
		case p == 39:
			st.fg = 0
		case p == 49:
			st.bg = 0
		case p == 59:
			st.ulColor = 0
		case p == 38 || p == 48 || p == 58:
			var c color
			var ok bool
			if len(subs) > 0 {
				c, ok = extendedColor(subs, true)
			} else {
				var used int
				c, used, ok = extendedColorSemicolon(ps[i+1:])
				j = i + 1 + used
			}
			if ok {
				switch p {
				case 38:
					st.fg = c
				case 48:
					st.bg = c
				default:
					st.ulColor = c
				}
			}
		default:
			applyAttr(st, p)
		}
		i = j - 1
	}
}

// applyAttr handles the SGR numbers that switch one attribute on or off.
func applyAttr(st *style, p int) {
	switch p {
	case 1:
		st.attrs |= attrBold
	case 2:
		st.attrs |= attrFaint
	case 3:
		st.attrs |= attrItalic
	case 5:
		st.attrs |= attrBlink
	case 6:
		st.attrs |= attrRapidBlink
	case 7:
		st.attrs |= attrReverse
	case 8:
		st.attrs |= attrConceal
	case 9:
		st.attrs |= attrStrike
	case 53:
		st.attrs |= attrOverline
	case 22:
		st.attrs &^= attrBold | attrFaint
	case 23:
		st.attrs &^= attrItalic
	case 25:
		st.attrs &^= attrBlink | attrRapidBlink
	case 27:
		st.attrs &^= attrReverse
	case 28:
		st.attrs &^= attrConceal
	case 29:
		st.attrs &^= attrStrike
	case 55:
		st.attrs &^= attrOverline
	}
}

// extendedColor reads the colon form, 38:5:n or 38:2:[space]:r:g:b.
func extendedColor(subs []sgrParam, colon bool) (color, bool) {
	switch subs[0].v {
	case 5:
		if len(subs) >= 2 {
			return colorIndexed | color(clampByte(subs[1].v)), true
		}
	case 2:
		rgb := subs[1:]
		if colon && len(rgb) >= 4 {
			rgb = rgb[1:] // a colour-space id comes first
		}
		if len(rgb) >= 3 {
			return colorRGB | color(clampByte(rgb[0].v))<<16 | color(clampByte(rgb[1].v))<<8 | color(clampByte(rgb[2].v)), true
		}
	}
	return 0, false
}

// extendedColorSemicolon reads the common semicolon form, 38;5;n or
// 38;2;r;g;b, from the parameters after the 38; used says how many it took.
func extendedColorSemicolon(rest []sgrParam) (c color, used int, ok bool) {
	if len(rest) == 0 {
		return 0, 0, false
	}
	switch rest[0].v {
	case 5:
		if len(rest) < 2 {
			return 0, len(rest), false
		}
		c, ok = extendedColor(rest[:2], false)
		return c, 2, ok
	case 2:
		if len(rest) < 4 {
			return 0, len(rest), false
		}
		c, ok = extendedColor(rest[:4], false)
		return c, 4, ok
	}
	return 0, 1, false
}

func clampByte(v int) int { return max(0, min(v, 255)) }

// appendSGR writes the sequence that changes the rendition from prev to
// next. It resets and sets next in full, so it never depends on what a
// terminal made of earlier sequences.
func appendSGR(b []byte, prev, next style) []byte {
	if next == (style{}) {
		return append(b, "\x1b[m"...)
	}
	b = append(b, "\x1b["...)
	if prev != (style{}) {
		b = append(b, "0;"...)
	}
	for _, a := range attrCodes {
		if next.attrs&a.bit != 0 {
			b = append(b, a.code...)
			b = append(b, ';')
		}
	}
	switch next.underline {
	case 0:
	case 1:
		b = append(b, "4;"...)
	default:
		b = append(b, "4:"...)
		b = strconv.AppendInt(b, int64(next.underline), 10)
		b = append(b, ';')
	}
	if next.fg != 0 {
		b = appendColor(b, next.fg, 30, 90, "38")
	}
	if next.bg != 0 {
		b = appendColor(b, next.bg, 40, 100, "48")
	}
	if next.ulColor != 0 {
		b = appendColor(b, next.ulColor, -1, -1, "58")
	}
	b[len(b)-1] = 'm' // replaces the last separator
	return b
}

var attrCodes = []struct {
	bit  uint16
	code string
}{
	{attrBold, "1"}, {attrFaint, "2"}, {attrItalic, "3"}, {attrBlink, "5"},
	{attrRapidBlink, "6"}, {attrReverse, "7"}, {attrConceal, "8"},
	{attrStrike, "9"}, {attrOverline, "53"},
}

// appendColor spells c as SGR parameters followed by a separator: base+n
// and bright+n for the 16 basic colours (when the attribute has such
// codes), else the extended form starting with ext.
func appendColor(b []byte, c color, base, bright int, ext string) []byte {
	v := int64(c &^ colorKind)
	kind := c & colorKind
	switch {
	case kind == colorBasic && base >= 0 && v < 8:
		b = strconv.AppendInt(b, int64(base)+v, 10)
	case kind == colorBasic && base >= 0:
		b = strconv.AppendInt(b, int64(bright)+v-8, 10)
	case kind == colorBasic || kind == colorIndexed:
		b = append(b, ext...)
		b = append(b, ";5;"...)
		b = strconv.AppendInt(b, v, 10)
	default:
		b = append(b, ext...)
		b = append(b, ";2;"...)
		b = strconv.AppendInt(b, v>>16, 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, v>>8&0xff, 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, v&0xff, 10)
	}
	return append(b, ';')
}
