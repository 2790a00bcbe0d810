package termimage

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// Box drawing, block elements and braille are drawn as shapes rather than
// font glyphs, so that lines meet across cells whatever the font's
// metrics, as terminal emulators draw them.

// Arm weights of a box-drawing character.
const (
	armNone   = '0'
	armLight  = '1'
	armHeavy  = '2'
	armDouble = '3'
)

// boxArms gives, for U+2500 to U+254B and U+2550 to U+256C, the weight of
// the arms going up, right, down and left from the cell's centre.
var boxArms = [...]string{
	"0101", "0202", "1010", "2020", "0101", "0202", "1010", "2020", // 2500
	"0101", "0202", "1010", "2020", "0110", "0210", "0120", "0220", // 2508
	"0011", "0012", "0021", "0022", "1100", "1200", "2100", "2200", // 2510
	"1001", "1002", "2001", "2002", "1110", "1210", "2110", "1120", // 2518
	"2120", "2210", "1220", "2220", "1011", "1012", "2011", "1021", // 2520
	"2021", "2012", "1022", "2022", "0111", "0112", "0211", "0212", // 2528
	"0121", "0122", "0221", "0222", "1101", "1102", "1201", "1202", // 2530
	"2101", "2102", "2201", "2202", "1111", "1112", "1211", "1212", // 2538
	"2111", "1121", "2121", "2112", "2211", "1122", "1221", "2212", // 2540
	"1222", "2122", "2221", "2222", // 2548
}

var doubleArms = [...]string{
	"0303", "3030", "0310", "0130", "0330", "0013", "0031", "0033", // 2550
	"1300", "3100", "3300", "1003", "3001", "3003", "1310", "3130", // 2558
	"3330", "1013", "3031", "3033", "0313", "0131", "0333", "1303", // 2560
	"3101", "3303", "1313", "3131", "3333", // 2568
}

// dashes is how many dashes a dashed line character has.
var dashes = map[rune]int{
	0x2504: 3, 0x2505: 3, 0x2506: 3, 0x2507: 3,
	0x2508: 4, 0x2509: 4, 0x250a: 4, 0x250b: 4,
	0x254c: 2, 0x254d: 2, 0x254e: 2, 0x254f: 2,
}

// halfArms are U+2574 to U+257F: single arms and mixed lines.
var halfArms = [...]string{
	"0001", "1000", "0100", "0010", "0002", "2000", "0200", "0020",
	"0201", "1020", "0102", "2010",
}

// drawShape draws r as a shape if it is one; it reports whether it was.
func drawShape(img *image.RGBA, cell image.Rectangle, r rune, fg color.RGBA) bool {
	switch {
	case r >= 0x2500 && r <= 0x254b:
		drawBox(img, cell, boxArms[r-0x2500], dashes[r], fg)
	case r >= 0x254c && r <= 0x254f:
		drawBox(img, cell, boxArms[r-0x254c+4], dashes[r], fg)
	case r >= 0x2550 && r <= 0x256c:
		drawBox(img, cell, doubleArms[r-0x2550], 0, fg)
	case r >= 0x256d && r <= 0x2570:
		drawArc(img, cell, r, fg)
	case r >= 0x2574 && r <= 0x257f:
		drawBox(img, cell, halfArms[r-0x2574], 0, fg)
	case r >= 0x2580 && r <= 0x259f:
		drawBlock(img, cell, r, fg)
	case r >= 0x2800 && r <= 0x28ff:
		drawBraille(img, cell, r, fg)
	default:
		return false
	}
	return true
}

// stroke is the width of a light line; heavy lines are twice as wide.
func stroke(cell image.Rectangle) int { return max(1, int(math.Round(float64(cell.Dx())/9))) }

// drawBox draws the arms of a box-drawing character; n > 0 draws them as
// n dashes per cell.
func drawBox(img *image.RGBA, cell image.Rectangle, arms string, n int, fg color.RGBA) {
	cx := cell.Min.X + cell.Dx()/2
	cy := cell.Min.Y + cell.Dy()/2
	light := stroke(cell)
	// The widest crossing arm, so that arms meet without a notch.
	reach := func(a, b byte) int {
		w := 0
		for _, c := range []byte{a, b} {
			switch c {
			case armLight:
				w = max(w, light)
			case armHeavy:
				w = max(w, 2*light)
			case armDouble:
				w = max(w, 3*light)
			}
		}
		return (w + 1) / 2
	}
	hReach := reach(arms[0], arms[2]) // how far horizontal arms go past the centre
	vReach := reach(arms[1], arms[3])
	for i, dir := range []image.Point{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		weight := arms[i]
		switch {
		case weight == armNone:
			continue
		case weight == armDouble:
			drawDoubleArm(img, cell, arms, i, light, fg)
			continue
		}
		var seg image.Rectangle
		switch dir {
		case image.Point{0, -1}:
			seg = image.Rect(cx, cell.Min.Y, cx, cy+vReach)
		case image.Point{0, 1}:
			seg = image.Rect(cx, cy-vReach, cx, cell.Max.Y)
		case image.Point{1, 0}:
			seg = image.Rect(cx-hReach, cy, cell.Max.X, cy)
		default:
			seg = image.Rect(cell.Min.X, cy, cx+hReach, cy)
		}
		drawArm(img, seg, dir.X != 0, weight, light, n, fg)
	}
}

// drawDoubleArm draws arm i (up, right, down, left) of a double-line
// character as two lines. Each line stops where it meets the crossing arm
// on its side: at the crossing arm's near line if there is one on that
// side, at its far line if the crossing arm is only on the other side
// (the outside of a corner), else at the centre.
func drawDoubleArm(img *image.RGBA, cell image.Rectangle, arms string, i, light int, fg color.RGBA) {
	cx := cell.Min.X + cell.Dx()/2
	cy := cell.Min.Y + cell.Dy()/2
	g := light // the half gap between the two lines
	vertical := i%2 == 0
	// The crossing arms: for a vertical arm, left (side -1) and right
	// (side +1); for a horizontal one, up (-1) and down (+1).
	cross := func(side int) bool {
		if vertical {
			return arms[map[int]int{-1: 3, 1: 1}[side]] != armNone
		}
		return arms[map[int]int{-1: 0, 1: 2}[side]] != armNone
	}
	for _, side := range []int{-1, 1} {
		stop := 0 // offset from the centre toward the arm's end
		switch {
		case cross(side):
			stop = g
		case cross(-side):
			stop = -g
		}
		off := side * g
		var r image.Rectangle
		switch i {
		case 0: // up
			r = image.Rect(cx+off, cell.Min.Y, cx+off, cy-stop)
		case 2: // down
			r = image.Rect(cx+off, cy+stop, cx+off, cell.Max.Y)
		case 1: // right
			r = image.Rect(cx+stop, cy+off, cell.Max.X, cy+off)
		default: // left
			r = image.Rect(cell.Min.X, cy+off, cx-stop, cy+off)
		}
		if vertical {
			r.Min.X, r.Max.X = r.Min.X-light/2, r.Min.X-light/2+light
			r.Max.Y += light / 2
		} else {
			r.Min.Y, r.Max.Y = r.Min.Y-light/2, r.Min.Y-light/2+light
			r.Max.X += light / 2
		}
		fill(img, r, fg)
	}
}

// drawArm draws one arm along seg (a line of zero thickness).
func drawArm(img *image.RGBA, seg image.Rectangle, horizontal bool, weight byte, light, n int, fg color.RGBA) {
	thick := func(off, w int) image.Rectangle {
		if horizontal {
			return image.Rect(seg.Min.X, seg.Min.Y+off-w/2, seg.Max.X, seg.Min.Y+off-w/2+w)
		}
		return image.Rect(seg.Min.X+off-w/2, seg.Min.Y, seg.Min.X+off-w/2+w, seg.Max.Y)
	}
	var lines []image.Rectangle
	switch weight {
	case armLight:
		lines = []image.Rectangle{thick(0, light)}
	case armHeavy:
		lines = []image.Rectangle{thick(0, 2*light)}
	case armDouble:
		lines = []image.Rectangle{thick(-light, light), thick(light, light)}
	}
	for _, l := range lines {
		if n == 0 {
			fill(img, l, fg)
			continue
		}
		// n dashes, each followed by a gap of half its length.
		length := l.Dx()
		if !horizontal {
			length = l.Dy()
		}
		step := float64(length) / float64(n)
		for k := range n {
			a := int(float64(k) * step)
			b := a + int(step*2/3+0.5)
			d := l
			if horizontal {
				d.Min.X, d.Max.X = l.Min.X+a, l.Min.X+b
			} else {
				d.Min.Y, d.Max.Y = l.Min.Y+a, l.Min.Y+b
			}
			fill(img, d, fg)
		}
	}
}

// drawArc draws a rounded corner (U+256D to U+2570): a quarter circle
// joining the two arms, which run straight on to the cell's edges.
func drawArc(img *image.RGBA, cell image.Rectangle, r rune, fg color.RGBA) {
	cx := float64(cell.Min.X + cell.Dx()/2)
	cy := float64(cell.Min.Y + cell.Dy()/2)
	w := stroke(cell)
	rad := float64(cell.Dx()) / 2
	// sx, sy point from the centre to the arms: ╭ right and down, ╮ left
	// and down, ╯ left and up, ╰ right and up.
	sx, sy := 1.0, 1.0
	switch r {
	case 0x256e:
		sx = -1
	case 0x256f:
		sx, sy = -1, -1
	case 0x2570:
		sy = -1
	}
	ox, oy := cx+sx*rad, cy+sy*rad // the circle's centre
	for i := 0; i <= 64; i++ {
		a := float64(i) / 64 * math.Pi / 2
		x := ox - sx*rad*math.Cos(a)
		y := oy - sy*rad*math.Sin(a)
		px, py := int(math.Round(x)), int(math.Round(y))
		fill(img, image.Rect(px-w/2, py-w/2, px-w/2+w, py-w/2+w), fg)
	}
	// The straight parts: from the arc's ends to the edges.
	half := w / 2
	if sx > 0 {
		fill(img, image.Rect(int(ox), int(cy)-half, cell.Max.X, int(cy)-half+w), fg)
	} else {
		fill(img, image.Rect(cell.Min.X, int(cy)-half, int(ox)+1, int(cy)-half+w), fg)
	}
	if sy > 0 {
		fill(img, image.Rect(int(cx)-half, int(oy), int(cx)-half+w, cell.Max.Y), fg)
	} else {
		fill(img, image.Rect(int(cx)-half, cell.Min.Y, int(cx)-half+w, int(oy)+1), fg)
	}
}

// drawBlock draws the block elements U+2580 to U+259F.
func drawBlock(img *image.RGBA, cell image.Rectangle, r rune, fg color.RGBA) {
	x0, y0, w, h := cell.Min.X, cell.Min.Y, cell.Dx(), cell.Dy()
	eighthsH := func(n int) int { return (h*n + 4) / 8 }
	eighthsW := func(n int) int { return (w*n + 4) / 8 }
	switch {
	case r == 0x2580:
		fill(img, image.Rect(x0, y0, x0+w, y0+h/2), fg)
	case r >= 0x2581 && r <= 0x2588:
		n := int(r - 0x2580)
		fill(img, image.Rect(x0, y0+h-eighthsH(n), x0+w, y0+h), fg)
	case r >= 0x2589 && r <= 0x258f:
		n := int(0x2590 - r)
		fill(img, image.Rect(x0, y0, x0+eighthsW(n), y0+h), fg)
	case r == 0x2590:
		fill(img, image.Rect(x0+w/2, y0, x0+w, y0+h), fg)
	case r >= 0x2591 && r <= 0x2593:
		a := uint8(64 * (r - 0x2590))
		shade := color.NRGBA{R: fg.R, G: fg.G, B: fg.B, A: a}
		draw.Draw(img, cell, image.NewUniform(shade), image.Point{}, draw.Over)
	case r == 0x2594:
		fill(img, image.Rect(x0, y0, x0+w, y0+eighthsH(1)), fg)
	case r == 0x2595:
		fill(img, image.Rect(x0+w-eighthsW(1), y0, x0+w, y0+h), fg)
	default:
		// Quadrants, as bits: upper left 1, upper right 2, lower left 4,
		// lower right 8.
		q := [...]int{4, 8, 1, 13, 9, 7, 11, 2, 6, 14}[r-0x2596]
		for bit, rect := range []image.Rectangle{
			image.Rect(x0, y0, x0+w/2, y0+h/2), image.Rect(x0+w/2, y0, x0+w, y0+h/2),
			image.Rect(x0, y0+h/2, x0+w/2, y0+h), image.Rect(x0+w/2, y0+h/2, x0+w, y0+h),
		} {
			if q&(1<<bit) != 0 {
				fill(img, rect, fg)
			}
		}
	}
}

// drawBraille draws the dots of a braille pattern (U+2800 to U+28FF) in
// two columns of four.
func drawBraille(img *image.RGBA, cell image.Rectangle, r rune, fg color.RGBA) {
	bits := int(r - 0x2800)
	// Dot numbers 1-8 as bits 0-7, by column and row.
	pos := [8]image.Point{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
	dot := max(2, cell.Dx()/4)
	for i, p := range pos {
		if bits&(1<<i) == 0 {
			continue
		}
		x := cell.Min.X + cell.Dx()*(1+2*p.X)/4 - dot/2
		y := cell.Min.Y + cell.Dy()*(1+2*p.Y)/8 - dot/2
		fill(img, image.Rect(x, y, x+dot, y+dot), fg)
	}
}
