package bashmode

import "unicode/utf8"

// cell is one column of a row. A wide character takes two cells, the
// second holding rune 0.
type cell struct {
	r     rune
	style uint16 // index into the row's palette
}

// row is one line of the screen.
type row struct {
	cells   []cell
	palette []style        // styles the cells use; index 0 is the default
	marks   map[int]string // combining marks after a column's character
	wrapped bool           // continues the row above (a soft wrap)
	dirty   bool           // text is out of date
	text    string         // rendered cells, kept until they change
}

func (r *row) reset() {
	r.cells = r.cells[:0]
	if len(r.palette) > 0 {
		r.palette = r.palette[:1]
	}
	r.marks = nil
	r.wrapped = false
	r.dirty = true
	r.text = ""
}

func (r *row) empty() bool { return len(r.cells) == 0 }

// styleIndex returns a palette index for st, adding it when none of the
// last few entries matches. Duplicates are harmless and get merged when the
// palette is compacted, which keeps it within twice the row's width.
func (r *row) styleIndex(st style) uint16 {
	if st == (style{}) {
		return 0
	}
	if len(r.palette) == 0 {
		r.palette = append(r.palette, style{})
	}
	for i, n := len(r.palette)-1, 0; i > 0 && n < 8; i, n = i-1, n+1 {
		if r.palette[i] == st {
			return uint16(i)
		}
	}
	if len(r.palette) > 2*len(r.cells)+16 {
		r.compact()
	}
	r.palette = append(r.palette, st)
	return uint16(len(r.palette) - 1)
}

// compact drops the palette entries no cell uses and merges duplicates.
func (r *row) compact() {
	index := map[style]uint16{{}: 0}
	palette := []style{{}}
	for i, c := range r.cells {
		st := r.palette[c.style]
		j, ok := index[st]
		if !ok {
			j = uint16(len(palette))
			palette = append(palette, st)
			index[st] = j
		}
		r.cells[i].style = j
	}
	r.palette = palette
}

func (r *row) style(i uint16) style {
	if int(i) < len(r.palette) {
		return r.palette[i]
	}
	return style{}
}

// render returns the row with its SGR sequences, reusing the last
// rendering when nothing changed.
func (r *row) render() string {
	if !r.dirty {
		return r.text
	}
	b := make([]byte, 0, len(r.cells)+8)
	cur := style{}
	for i, c := range r.cells {
		if c.r == 0 {
			continue
		}
		if st := r.style(c.style); st != cur {
			b = appendSGR(b, cur, st)
			cur = st
		}
		b = utf8.AppendRune(b, c.r)
		if r.marks != nil {
			b = append(b, r.marks[i]...)
		}
	}
	if cur != (style{}) {
		b = appendSGR(b, cur, style{})
	}
	r.text, r.dirty = string(b), false
	return r.text
}

// appendPlain appends the row's characters without any rendition.
func (r *row) appendPlain(b []byte) []byte {
	for i, c := range r.cells {
		if c.r == 0 {
			continue
		}
		b = utf8.AppendRune(b, c.r)
		if r.marks != nil {
			b = append(b, r.marks[i]...)
		}
	}
	return b
}
