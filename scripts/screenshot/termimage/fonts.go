package termimage

import (
	"fmt"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// fontStyle indexes the four faces of a family.
type fontStyle int

const (
	styleRegular fontStyle = iota
	styleBold
	styleItalic
	styleBoldItalic
)

func styleOf(st Style) fontStyle {
	switch {
	case st.Bold && st.Italic:
		return styleBoldItalic
	case st.Bold:
		return styleBold
	case st.Italic:
		return styleItalic
	}
	return styleRegular
}

// face is one font at one size, with the parsed font kept to ask which
// characters it has.
type face struct {
	font *sfnt.Font
	face font.Face
	buf  sfnt.Buffer
}

func (f *face) has(r rune) bool {
	i, err := f.font.GlyphIndex(&f.buf, r)
	return err == nil && i != 0
}

// Fonts draws text into cells: Go Mono (embedded) first, then fallback
// fonts for characters it lacks.
type Fonts struct {
	chains [4][]*face
	// CellW and CellH are a cell's size in pixels; Baseline is the
	// baseline's distance from the cell's top.
	CellW, CellH, Baseline int
}

// fallbackFonts are fonts tried for characters Go Mono lacks, when they
// are installed (Debian's fonts-dejavu-core): regular, bold, italic and
// bold italic, then DejaVu Sans for symbols the monospace face lacks.
var fallbackFonts = [][4]string{
	{
		"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf",
	},
	{
		"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans-BoldOblique.ttf",
	},
}

// LoadFonts prepares the fonts at size pixels. extra names font files
// (TrueType or OpenType) tried after Go Mono and before the installed
// fallbacks, for every style.
func LoadFonts(size float64, extra ...string) (*Fonts, error) {
	fs := &Fonts{}
	embedded := [4][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF}
	for s, ttf := range embedded {
		f, err := newFace(ttf, size)
		if err != nil {
			return nil, fmt.Errorf("go mono: %w", err)
		}
		fs.chains[s] = append(fs.chains[s], f)
	}
	for _, path := range extra {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read font: %w", err)
		}
		f, err := newFace(data, size)
		if err != nil {
			return nil, fmt.Errorf("font %s: %w", path, err)
		}
		for s := range fs.chains {
			fs.chains[s] = append(fs.chains[s], f)
		}
	}
	for _, family := range fallbackFonts {
		for s, path := range family {
			data, err := os.ReadFile(path)
			if err != nil {
				continue // not installed: that fallback is skipped
			}
			if f, err := newFace(data, size); err == nil {
				fs.chains[s] = append(fs.chains[s], f)
			}
		}
	}
	m := fs.chains[styleRegular][0].face.Metrics()
	adv, _ := fs.chains[styleRegular][0].face.GlyphAdvance('0')
	fs.CellW = int(math.Round(float64(adv) / 64))
	fs.CellH = int(math.Round(size * 1.25))
	ascent, descent := float64(m.Ascent)/64, float64(m.Descent)/64
	fs.Baseline = int(math.Round((float64(fs.CellH)-ascent-descent)/2 + ascent))
	return fs, nil
}

func newFace(data []byte, size float64) (*face, error) {
	f, err := opentype.Parse(data)
	if err != nil {
		return nil, err
	}
	ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	return &face{font: f, face: ff}, nil
}

// pick returns the first face of the style's chain that has r, or nil.
func (fs *Fonts) pick(st fontStyle, r rune) *face {
	for _, f := range fs.chains[st] {
		if f.has(r) {
			return f
		}
	}
	if st != styleRegular {
		return fs.pick(styleRegular, r)
	}
	return nil
}
