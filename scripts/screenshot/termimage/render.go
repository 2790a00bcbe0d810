package termimage

import (
	"image"
	"image/color"
	"image/draw"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Options are how a Screen is drawn.
type Options struct {
	// Theme gives the default colours and the base palette; the zero
	// value means DarkTheme.
	Theme *Theme
	// Fonts draw the text; nil means LoadFonts(16).
	Fonts *Fonts
	// Padding is the margin around the cells, in pixels.
	Padding int
}

// Render draws every cell of s with its colours and attributes onto an
// image filled with the theme's background.
func Render(s *Screen, o Options) (*image.RGBA, error) {
	th := o.Theme
	if th == nil {
		th = &DarkTheme
	}
	fs := o.Fonts
	if fs == nil {
		var err error
		if fs, err = LoadFonts(16); err != nil {
			return nil, err
		}
	}
	pad := max(o.Padding, 0)
	img := image.NewRGBA(image.Rect(0, 0, s.Cols*fs.CellW+2*pad, s.Rows*fs.CellH+2*pad))
	draw.Draw(img, img.Bounds(), image.NewUniform(th.BG), image.Point{}, draw.Src)
	for y, row := range s.Cells {
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			cell := image.Rect(pad+x*fs.CellW, pad+y*fs.CellH, pad+(x+c.Width)*fs.CellW, pad+(y+1)*fs.CellH)
			drawCell(img, cell, c, th, fs)
		}
	}
	return img, nil
}

// drawCell paints one cell: background, character, then lines.
func drawCell(img *image.RGBA, cell image.Rectangle, c Cell, th *Theme, fs *Fonts) {
	fg, bg := th.colors(c.Style)
	if bg != th.BG {
		draw.Draw(img, cell, image.NewUniform(bg), image.Point{}, draw.Src)
	}
	r, _ := utf8.DecodeRuneInString(c.Text)
	switch {
	case c.Text == " " || c.Text == "":
	case drawShape(img, cell, r, fg):
	default:
		drawGlyphs(img, cell, c, fg, fs)
	}
	thin := max(1, cell.Dy()/16)
	if c.Style.Underline {
		y := cell.Min.Y + fs.Baseline + max(2, cell.Dy()/10)
		fill(img, image.Rect(cell.Min.X, y, cell.Max.X, y+thin), fg)
	}
	if c.Style.Strike {
		y := cell.Min.Y + cell.Dy()/2
		fill(img, image.Rect(cell.Min.X, y, cell.Max.X, y+thin), fg)
	}
}

// drawGlyphs draws a cell's text with the first font that has each
// character, centred in the cell; a character no font has is drawn as an
// empty box.
func drawGlyphs(img *image.RGBA, cell image.Rectangle, c Cell, fg color.RGBA, fs *Fonts) {
	st := styleOf(c.Style)
	base, _ := utf8.DecodeRuneInString(c.Text)
	f := fs.pick(st, base)
	if f == nil {
		missing(img, cell, fg)
		return
	}
	adv := font.MeasureString(f.face, c.Text)
	x := fixed.I(cell.Min.X) + (fixed.I(cell.Dx())-adv)/2
	d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: f.face, Dot: fixed.Point26_6{X: x, Y: fixed.I(cell.Min.Y + fs.Baseline)}}
	d.DrawString(c.Text)
}

// missing draws the box terminals show for a character they cannot draw.
func missing(img *image.RGBA, cell image.Rectangle, fg color.RGBA) {
	in := cell.Inset(max(1, cell.Dx()/5))
	in.Min.Y = cell.Min.Y + cell.Dy()/4
	in.Max.Y = cell.Max.Y - cell.Dy()/5
	fill(img, image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+1), fg)
	fill(img, image.Rect(in.Min.X, in.Max.Y-1, in.Max.X, in.Max.Y), fg)
	fill(img, image.Rect(in.Min.X, in.Min.Y, in.Min.X+1, in.Max.Y), fg)
	fill(img, image.Rect(in.Max.X-1, in.Min.Y, in.Max.X, in.Max.Y), fg)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r.Intersect(img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
}
