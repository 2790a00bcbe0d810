package termimage

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
)

// Theme is the terminal emulator's side of the colours: the default
// foreground and background and the 16 base palette entries. Palette
// entries 16-255 are the standard 6x6x6 cube and grey ramp.
type Theme struct {
	FG, BG  color.RGBA
	Palette [16]color.RGBA
}

// DarkTheme is a dark terminal with a soft palette, the default.
var DarkTheme = Theme{
	FG: rgba(0xd4d4d4), BG: rgba(0x1a1b1e),
	Palette: [16]color.RGBA{
		rgba(0x2e3036), rgba(0xe06c75), rgba(0x98c379), rgba(0xe5c07b),
		rgba(0x61afef), rgba(0xc678dd), rgba(0x56b6c2), rgba(0xc8ccd4),
		rgba(0x5c6370), rgba(0xf07c85), rgba(0xa8d389), rgba(0xf5d08b),
		rgba(0x71bfff), rgba(0xd688ed), rgba(0x66c6d2), rgba(0xffffff),
	},
}

// LightTheme is a light terminal.
var LightTheme = Theme{
	FG: rgba(0x24292f), BG: rgba(0xfafafa),
	Palette: [16]color.RGBA{
		rgba(0x24292f), rgba(0xcf222e), rgba(0x116329), rgba(0x7d4e00),
		rgba(0x0969da), rgba(0x8250df), rgba(0x1b7c83), rgba(0x6e7781),
		rgba(0x57606a), rgba(0xa40e26), rgba(0x1a7f37), rgba(0x633c01),
		rgba(0x218bff), rgba(0xa475f9), rgba(0x3192aa), rgba(0x8c959f),
	},
}

func rgba(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// ParseHex reads a colour written #rrggbb or rrggbb.
func ParseHex(s string) (color.RGBA, error) {
	h := strings.TrimPrefix(s, "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil || len(h) != 6 {
		return color.RGBA{}, fmt.Errorf("colour %q is not #rrggbb", s)
	}
	return rgba(uint32(v)), nil
}

// resolve turns a cell colour into pixels; def is the default to use.
func (t *Theme) resolve(c Color, def color.RGBA) color.RGBA {
	switch c.Mode {
	case ColorRGB:
		return color.RGBA{R: c.R, G: c.G, B: c.B, A: 0xff}
	case ColorIndexed:
		return t.indexed(c.Index)
	}
	return def
}

// indexed is palette entry i of the 256-colour palette.
func (t *Theme) indexed(i uint8) color.RGBA {
	switch {
	case i < 16:
		return t.Palette[i]
	case i < 232:
		i -= 16
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return color.RGBA{R: level(i / 36), G: level(i / 6 % 6), B: level(i % 6), A: 0xff}
	}
	g := 8 + 10*(i-232)
	return color.RGBA{R: g, G: g, B: g, A: 0xff}
}

// colors returns a cell's foreground and background in pixels, after
// reverse video, faint and hidden are applied.
func (t *Theme) colors(st Style) (fg, bg color.RGBA) {
	fg = t.resolve(st.FG, t.FG)
	bg = t.resolve(st.BG, t.BG)
	if st.Reverse {
		fg, bg = bg, fg
	}
	if st.Faint {
		fg = blend(fg, bg, 0.5)
	}
	if st.Hidden {
		fg = bg
	}
	return fg, bg
}

// blend mixes a toward b by the fraction f.
func blend(a, b color.RGBA, f float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(float64(x)*(1-f) + float64(y)*f + 0.5) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xff}
}
