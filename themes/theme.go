package themes

import (
	"image/color"
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/colorprofile"
)

// Theme is a parsed, fully resolved theme. Its methods are cheap (styles are
// built once, when the theme is parsed) and safe for concurrent use. Treat a
// Theme as read-only: the built-ins are shared.
type Theme struct {
	// Name is the theme's "name" field; it is what /theme and settings use.
	Name string
	// Dark reports whether the theme is meant for a dark background. It is
	// derived from the background colours (export.pageBg, userMessageBg,
	// toolPendingBg, selectedBg, customMessageBg, the first that is set), or
	// failing that from the text colour; a theme with neither counts as dark.
	Dark bool
	// Source is the file the theme came from, or "" for a built-in theme or
	// one given to Parse directly.
	Source string
	// Warnings lists keys that were ignored because cairn does not know them.
	Warnings []string

	values    [numTokens]value
	export    [len(exportKeys)]value
	exportSet [len(exportKeys)]bool

	colours [numTokens]color.Color
	fg, bg  [numTokens]lipgloss.Style
	chroma  *chroma.Style
	sgr     *sgrFormatter

	// low holds the "colors256" and "colors16" sections: the values of
	// tokens that read better chosen by hand than converted, by profile
	// (see lowColorKeys); variants are the themes made from them.
	low      [2]map[int]value
	once     sync.Once
	variants [2]func() *Theme
}

// lowColorKeys are the sections of a theme that give its colours for a
// 256-colour and a 16-colour terminal, in the order of Theme.low.
var lowColorKeys = [2]string{"colors256", "colors16"}

// ForProfile returns the theme as drawn on a terminal with profile's
// colours. A true-colour terminal (or an unknown one) gets t itself. On
// 256 or 16 colours the theme's "colors256" or "colors16" values replace
// the ones a nearest-colour conversion would get wrong (subtle backgrounds
// turn solid navy or bright green, greys merge); on 16 colours every
// background the theme does not give is dropped, since no basic colour is
// subtle enough to sit behind text. The rest is converted by the
// terminal's renderer. Variants are made once.
func (t *Theme) ForProfile(p colorprofile.Profile) *Theme {
	var n int
	switch p {
	case colorprofile.ANSI256:
		n = 0
	case colorprofile.ANSI, colorprofile.Ascii:
		n = 1
	default:
		return t
	}
	t.once.Do(func() {
		for i := range t.variants {
			t.variants[i] = sync.OnceValue(func() *Theme { return t.variant(i) })
		}
	})
	return t.variants[n]()
}

// variant makes the theme for lowColorKeys[n].
func (t *Theme) variant(n int) *Theme {
	v := &Theme{Name: t.Name, Dark: t.Dark, Source: t.Source, values: t.values, export: t.export, exportSet: t.exportSet}
	if n == 1 {
		for i, tok := range allTokens {
			if strings.HasSuffix(string(tok), "Bg") {
				v.values[i] = value{}
			}
		}
	}
	for i, val := range t.low[n] {
		v.values[i] = val
	}
	v.finish()
	v.Dark = t.Dark // the backgrounds it was judged by may be gone
	return v
}

// finish derives everything the methods hand out from the resolved values.
func (t *Theme) finish() {
	plain := lipgloss.NewStyle()
	for i, v := range t.values {
		t.colours[i] = v.colour()
		t.fg[i], t.bg[i] = plain, plain
		if v.kind != kindDefault {
			t.fg[i] = plain.Foreground(t.colours[i])
			t.bg[i] = plain.Background(t.colours[i])
		}
	}
	t.Dark = t.deriveDark()
	t.chroma = t.buildChroma()
	t.sgr = newSGRFormatter(t.values[:])
}

func (t *Theme) deriveDark() bool {
	candidates := []value{}
	if t.exportSet[0] {
		candidates = append(candidates, t.export[0])
	}
	for _, tok := range []Token{UserMessageBg, ToolPendingBg, SelectedBg, CustomMessageBg} {
		candidates = append(candidates, t.value(tok))
	}
	for _, v := range candidates {
		if v.kind != kindDefault {
			return v.luminance() < 0.5
		}
	}
	if text := t.value(Text); text.kind != kindDefault {
		return text.luminance() >= 0.5
	}
	return true
}

// value returns the resolved value of a token; unknown tokens are the
// terminal default.
func (t *Theme) value(tok Token) value {
	if i, ok := tokenIndex[tok]; ok {
		return t.values[i]
	}
	return value{}
}

// Color returns the token's colour for lipgloss: color.RGBA for "#rrggbb", a
// palette colour for an index, and lipgloss.NoColor{} (never nil) for the
// terminal default or an unknown token.
func (t *Theme) Color(tok Token) color.Color {
	if i, ok := tokenIndex[tok]; ok {
		return t.colours[i]
	}
	return lipgloss.NoColor{}
}

// IsDefault reports whether the token is "" (the terminal's own colour), in
// which case Fg and Bg return a style that sets no colour.
func (t *Theme) IsDefault(tok Token) bool {
	return t.value(tok).kind == kindDefault
}

// Fg returns a style whose foreground is the token's colour.
func (t *Theme) Fg(tok Token) lipgloss.Style {
	if i, ok := tokenIndex[tok]; ok {
		return t.fg[i]
	}
	return lipgloss.NewStyle()
}

// Bg returns a style whose background is the token's colour.
func (t *Theme) Bg(tok Token) lipgloss.Style {
	if i, ok := tokenIndex[tok]; ok {
		return t.bg[i]
	}
	return lipgloss.NewStyle()
}

// Hex returns the token's colour as "#rrggbb" for HTML export, or "" when it
// is the terminal default. Palette indexes use the standard xterm palette.
func (t *Theme) Hex(tok Token) string {
	return t.value(tok).hex()
}

// Spec returns the token's colour as lipgloss and glamour take it as a
// string: "#rrggbb", a palette index in decimal ("139", as a 256- or
// 16-colour rendering picks it, so it reaches the terminal as chosen
// rather than lowered again from RGB), or "" for the terminal default.
func (t *Theme) Spec(tok Token) string {
	v := t.value(tok)
	if v.kind == kindIndex {
		return strconv.Itoa(int(v.index))
	}
	return v.hex()
}

// ExportColors returns the page, card and info-box backgrounds for an HTML
// export as "#rrggbb". Colours the theme's "export" section leaves out are
// derived from userMessageBg (or a neutral grey when that is the terminal
// default), darker than it for dark themes and lighter for light ones.
func (t *Theme) ExportColors() (pageBg, cardBg, infoBg string) {
	base := t.value(UserMessageBg)
	if base.kind == kindDefault {
		base = mustHex("#2c2d35")
		if !t.Dark {
			base = mustHex("#ececef")
		}
	}
	var derived [len(exportKeys)]value
	if t.Dark {
		black := mustHex("#000000")
		derived = [...]value{base.blend(black, 0.5), base.blend(black, 0.35), base.blend(mustHex("#7a6a30"), 0.35)}
	} else {
		white := mustHex("#ffffff")
		derived = [...]value{base.blend(white, 0.6), base.blend(white, 1), base.blend(mustHex("#fff3c4"), 0.7)}
	}
	out := [len(exportKeys)]string{}
	for i := range out {
		v := derived[i]
		if t.exportSet[i] && t.export[i].kind != kindDefault {
			v = t.export[i]
		}
		out[i] = v.hex()
	}
	return out[0], out[1], out[2]
}
