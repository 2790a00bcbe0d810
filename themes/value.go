package themes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"strconv"

	"charm.land/lipgloss/v2"
)

// valueKind says how a resolved colour is given.
type valueKind uint8

const (
	kindDefault valueKind = iota // "": the terminal's own colour
	kindRGB                      // "#rrggbb"
	kindIndex                    // 0-255 in the 256-colour palette
)

// value is one resolved colour: no var names left.
type value struct {
	kind    valueKind
	r, g, b uint8
	index   uint8
}

// colour returns the value as an image/color for lipgloss. Palette indexes
// 0-15 stay basic ANSI colours so they follow the terminal's palette.
func (v value) colour() color.Color {
	switch v.kind {
	case kindRGB:
		return color.RGBA{R: v.r, G: v.g, B: v.b, A: 0xff}
	case kindIndex:
		return lipgloss.Color(strconv.Itoa(int(v.index)))
	default:
		return lipgloss.NoColor{}
	}
}

// rgb returns the value's red, green and blue; palette indexes use the
// standard xterm palette. ok is false for the terminal default.
func (v value) rgb() (r, g, b uint8, ok bool) {
	switch v.kind {
	case kindRGB:
		return v.r, v.g, v.b, true
	case kindIndex:
		cr, cg, cb, _ := v.colour().RGBA()
		return uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), true
	default:
		return 0, 0, 0, false
	}
}

// hex returns "#rrggbb", or "" for the terminal default.
func (v value) hex() string {
	r, g, b, ok := v.rgb()
	if !ok {
		return ""
	}
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

// luminance returns the perceived brightness from 0 (black) to 1 (white).
func (v value) luminance() float64 {
	r, g, b, _ := v.rgb()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 255
}

// blend mixes v towards w by amount (0 keeps v, 1 gives w), as "#rrggbb".
func (v value) blend(w value, amount float64) value {
	r1, g1, b1, _ := v.rgb()
	r2, g2, b2, _ := w.rgb()
	mix := func(a, b uint8) uint8 {
		return uint8(float64(a) + (float64(b)-float64(a))*amount + 0.5)
	}
	return value{kind: kindRGB, r: mix(r1, r2), g: mix(g1, g2), b: mix(b1, b2)}
}

// mustHex builds a value from a known-good "#rrggbb" literal.
func mustHex(s string) value {
	v, ok := parseHex(s)
	if !ok {
		panic("themes: bad colour literal " + s)
	}
	return v
}

// parseHex parses exactly "#rrggbb" (either case).
func parseHex(s string) (value, bool) {
	if len(s) != 7 || s[0] != '#' {
		return value{}, false
	}
	n, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return value{}, false
	}
	return value{kind: kindRGB, r: uint8(n >> 16), g: uint8(n >> 8), b: uint8(n)}, true
}

// rawValue is a colour value as written, before var names are resolved.
type rawValue struct {
	v      value  // the colour, when ref is empty and ok is true
	ref    string // a var name to look up
	ok     bool   // false: not a colour at all
	source string // the JSON text, for error messages
}

// parseRaw reads one JSON colour value: "#rrggbb", 0-255, "" or a var name.
func parseRaw(raw json.RawMessage) rawValue {
	text := string(bytes.TrimSpace(raw))
	out := rawValue{source: text}
	if len(text) == 0 {
		return out
	}
	switch text[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return out
		}
		switch {
		case s == "":
			out.v, out.ok = value{kind: kindDefault}, true
		case s[0] == '#':
			out.v, out.ok = parseHex(s)
		default:
			out.ref, out.ok = s, true
		}
	default:
		n, err := strconv.Atoi(text)
		if err == nil && n >= 0 && n <= 255 {
			out.v, out.ok = value{kind: kindIndex, index: uint8(n)}, true
		}
	}
	return out
}

// notAColour is the hint that follows every invalid colour value.
const notAColour = `is not a colour (use "#rrggbb", 0-255, a var name, or "")`
