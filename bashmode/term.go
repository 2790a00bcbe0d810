package bashmode

import "unicode/utf8"

// Limits of the line model.
const (
	// MaxCols is the widest row the model keeps; wider sizes are narrowed.
	MaxCols = 1000
	// maxMarkBytes bounds the combining marks kept on one character.
	maxMarkBytes = 32
)

// Screen is what a command's output looks like at one moment, as a
// terminal would show it.
type Screen struct {
	// Lines are rendered rows, oldest first. Each is self-contained: it
	// opens with the SGR sequence its first character needs and ends with
	// a reset if it changed the rendition, so rows can be shown alone.
	// Empty rows at the end (where the cursor waits) are left out.
	Lines []string
	// Total is how many rows the output has produced so far.
	Total int
	// Dropped is how many of the oldest rows are no longer kept because
	// of the line cap; Total-Dropped-len(Lines) more were left out by Tail.
	Dropped int
}

// Term is a small terminal line model: it reads a command's output and
// keeps the rows a terminal would show, with colours. It wraps at its
// width, understands carriage returns, backspaces, tabs, erasing in the
// line and cursor moves up, down and along rows (what progress bars use),
// keeps SGR colours and drops every other escape sequence. Only the last
// maxLines rows are kept. A Term is not safe for concurrent use.
type Term struct {
	cols, height, maxLines int

	ring    []row // rows, oldest at start, wrapping around
	start   int
	n       int // rows in use
	dropped int // rows gone from the top

	curRow, curCol int  // cursor; curRow counts from the first row ever
	wrapNext       bool // the last column was written: the next character wraps
	pen            style
	penRow         int // the row penIdx belongs to, or -1
	penIdx         uint16
	saved          savedCursor
	modes          InputModes // set by the command with DECSET and DECRST

	parser parser

	// evict, when set, sees each row before it is dropped.
	evict func(*row)
}

type savedCursor struct {
	row, col int
	pen      style
	ok       bool
}

// NewTerm returns an empty model cols wide and height tall (the height
// bounds how far up the cursor can move) keeping at most maxLines rows.
// Sizes below 1 read as 80, 24 and 2000.
func NewTerm(cols, height, maxLines int) *Term {
	if maxLines < 1 {
		maxLines = 2000
	}
	t := &Term{maxLines: maxLines, penRow: -1}
	t.Resize(cols, height)
	// One row more than the cap: the row the cursor waits on after the
	// last newline does not cost a line of output.
	t.ring = make([]row, 1, min(maxLines+1, 64))
	t.n = 1
	return t
}

// Resize changes the width and height. Rows already written keep their
// length (as in a terminal without reflow); the cursor stays inside.
func (t *Term) Resize(cols, height int) {
	if cols < 1 {
		cols = 80
	}
	if height < 1 {
		height = 24
	}
	t.cols, t.height = min(cols, MaxCols), height
	if t.curCol >= t.cols {
		t.curCol, t.wrapNext = t.cols-1, false
	}
}

// Write interprets output. It never fails and always consumes all of p;
// a character or sequence split across calls is completed by the next.
func (t *Term) Write(p []byte) (int, error) {
	t.parser.feed(t, p)
	return len(p), nil
}

func (t *Term) last() int { return t.dropped + t.n - 1 }

func (t *Term) rowAt(abs int) *row {
	return &t.ring[(t.start+abs-t.dropped)%len(t.ring)]
}

func (t *Term) cur() *row { return t.rowAt(t.curRow) }

// newRow adds a row at the bottom, dropping the oldest when full.
func (t *Term) newRow() {
	switch {
	case t.n < len(t.ring):
		t.n++
	case len(t.ring) < t.maxLines+1:
		t.ring = append(t.ring, row{})
		t.n++
	default:
		old := &t.ring[t.start]
		if t.evict != nil {
			t.evict(old)
		}
		t.start = (t.start + 1) % len(t.ring)
		t.dropped++
	}
	t.rowAt(t.last()).reset()
	if t.penRow == t.last() {
		t.penRow = -1
	}
}

// lineFeed moves to the start of the next row, adding one at the bottom.
func (t *Term) lineFeed() {
	t.wrapNext = false
	t.curCol = 0
	if t.curRow < t.last() {
		t.curRow++
		return
	}
	t.newRow()
	t.curRow = t.last()
}

// top is the highest row the cursor may reach: the screen is the last
// height rows.
func (t *Term) top() int { return max(t.dropped, t.last()-t.height+1) }

func (t *Term) moveRow(n int) {
	t.curRow = max(t.top(), min(t.last(), t.curRow+n))
	t.wrapNext = false
}

func (t *Term) moveCol(col int) {
	t.curCol = max(0, min(t.cols-1, col))
	t.wrapNext = false
}

// print puts a character of width w at the cursor.
func (t *Term) print(r rune, w int) {
	if w == 0 {
		t.mark(r)
		return
	}
	if t.wrapNext || (w == 2 && t.curCol == t.cols-1 && t.cols > 1) {
		t.lineFeed()
		t.cur().wrapped = true
	}
	t.put(t.curCol, r, w)
	t.curCol += w
	if t.curCol >= t.cols {
		t.curCol, t.wrapNext = t.cols-1, true
	}
}

// put writes r into the cursor's row at col, padding the row with blanks
// and clearing the halves of wide characters it overwrites.
func (t *Term) put(col int, r rune, w int) {
	rw := t.cur()
	if t.penRow != t.curRow {
		t.penIdx, t.penRow = rw.styleIndex(t.pen), t.curRow
	}
	c := cell{r: r, style: t.penIdx}
	if col == len(rw.cells) && w == 1 {
		rw.cells = append(rw.cells, c)
		rw.dirty = true
		return
	}
	for len(rw.cells) < col+w {
		rw.cells = append(rw.cells, cell{r: ' '})
	}
	if rw.cells[col].r == 0 && col > 0 {
		rw.cells[col-1] = cell{r: ' '}
	}
	if end := col + w; end < len(rw.cells) && rw.cells[end].r == 0 {
		rw.cells[end] = cell{r: ' '}
	}
	rw.cells[col] = c
	if w == 2 {
		rw.cells[col+1] = cell{style: t.penIdx}
	}
	if rw.marks != nil {
		delete(rw.marks, col)
	}
	rw.dirty = true
}

// mark attaches a zero-width character to the one before the cursor.
func (t *Term) mark(r rune) {
	rw := t.cur()
	col := t.curCol - 1
	if t.wrapNext {
		col = t.curCol
	}
	if col >= 0 && col < len(rw.cells) && rw.cells[col].r == 0 {
		col--
	}
	if col < 0 || col >= len(rw.cells) {
		return
	}
	if rw.marks == nil {
		rw.marks = make(map[int]string)
	}
	if m := rw.marks[col]; len(m)+utf8.RuneLen(r) <= maxMarkBytes {
		rw.marks[col] = m + string(r)
		rw.dirty = true
	}
}

// eraseLine implements EL: 0 from the cursor to the end, 1 from the start
// to the cursor, 2 the whole row.
func (t *Term) eraseLine(mode int) {
	rw := t.cur()
	t.wrapNext = false
	switch mode {
	case 0:
		if t.curCol < len(rw.cells) {
			if rw.cells[t.curCol].r == 0 && t.curCol > 0 {
				rw.cells[t.curCol-1] = cell{r: ' '}
			}
			rw.cells = rw.cells[:t.curCol]
			t.dropMarks(rw, t.curCol)
		}
	case 1:
		t.blank(rw, 0, t.curCol+1)
	case 2:
		rw.cells = rw.cells[:0]
		rw.marks = nil
	}
	rw.dirty = true
}

// blank replaces the cells in [from, to) with spaces, and the halves of
// wide characters that straddle either end.
func (t *Term) blank(rw *row, from, to int) {
	to = min(to, len(rw.cells))
	if from > 0 && from < len(rw.cells) && rw.cells[from].r == 0 {
		rw.cells[from-1] = cell{r: ' '}
		rw.cells[from] = cell{r: ' '}
	}
	if to > from && to < len(rw.cells) && rw.cells[to].r == 0 {
		rw.cells[to] = cell{r: ' '}
	}
	for i := from; i < to; i++ {
		rw.cells[i] = cell{r: ' '}
		if rw.marks != nil {
			delete(rw.marks, i)
		}
	}
	rw.dirty = true
}

func (t *Term) dropMarks(rw *row, from int) {
	for col := range rw.marks {
		if col >= from {
			delete(rw.marks, col)
		}
	}
}

// eraseBelow implements ED 0: the rest of the row and every row under the
// cursor go. The rows are removed rather than blanked, so a redrawn
// progress display leaves no empty rows behind.
func (t *Term) eraseBelow() {
	t.eraseLine(0)
	for t.last() > t.curRow {
		t.rowAt(t.last()).reset()
		t.n--
	}
	t.penRow = -1
}

// deleteChars implements DCH: n characters at the cursor go and the rest
// of the row moves left.
func (t *Term) deleteChars(n int) {
	rw := t.cur()
	if t.curCol >= len(rw.cells) {
		return
	}
	n = min(n, len(rw.cells)-t.curCol)
	t.blank(rw, t.curCol, t.curCol+n)
	rw.cells = append(rw.cells[:t.curCol], rw.cells[t.curCol+n:]...)
	t.dropMarks(rw, t.curCol)
	rw.dirty = true
}

// insertBlanks implements ICH: n blanks open at the cursor, pushing the
// rest of the row right; what passes the width falls off.
func (t *Term) insertBlanks(n int) {
	rw := t.cur()
	if t.curCol >= len(rw.cells) {
		return
	}
	limit := max(t.cols, len(rw.cells))
	n = min(n, t.cols)
	t.blank(rw, t.curCol, t.curCol) // splits no wide character
	blanks := make([]cell, n, n+len(rw.cells)-t.curCol)
	for i := range blanks {
		blanks[i] = cell{r: ' '}
	}
	rw.cells = append(rw.cells[:t.curCol], append(blanks, rw.cells[t.curCol:]...)...)
	if len(rw.cells) > limit {
		if rw.cells[limit].r == 0 {
			rw.cells[limit-1] = cell{r: ' '}
		}
		rw.cells = rw.cells[:limit]
	}
	t.dropMarks(rw, t.curCol)
	rw.dirty = true
}

func (t *Term) saveCursor() {
	t.saved = savedCursor{row: t.curRow, col: t.curCol, pen: t.pen, ok: true}
}

func (t *Term) restoreCursor() {
	if !t.saved.ok {
		t.curRow, t.curCol = t.top(), 0
		return
	}
	t.curRow = max(t.dropped, min(t.last(), t.saved.row))
	t.moveCol(t.saved.col)
	t.setPen(t.saved.pen)
}

func (t *Term) setPen(st style) {
	if st != t.pen {
		t.pen, t.penRow = st, -1
	}
}

// contentRows is how many rows, counted from the oldest kept, hold
// something: empty rows at the bottom do not count.
func (t *Term) contentRows() int {
	n := t.n
	for n > 0 && t.rowAt(t.dropped+n-1).empty() {
		n--
	}
	return n
}

// kept returns the range of rows Snapshot and Plain show, counted from
// the oldest row in the ring: at most maxLines, ending at the last row
// with content. The ring holds one row more than the cap for the row the
// cursor waits on; when that row has content, the oldest is not shown.
func (t *Term) kept() (first, end int) {
	end = t.contentRows()
	return max(0, end-t.maxLines), end
}

// droppedRows is how many rows are gone or hidden by the cap.
func (t *Term) droppedRows() int {
	first, _ := t.kept()
	return t.dropped + first
}

// Snapshot returns every kept row.
func (t *Term) Snapshot() Screen { return t.Tail(-1) }

// Tail returns the last n kept rows (all of them when n < 0).
func (t *Term) Tail(n int) Screen {
	first, end := t.kept()
	s := Screen{Total: t.dropped + end, Dropped: t.dropped + first}
	if n >= 0 {
		first = max(first, end-n)
	}
	s.Lines = make([]string, 0, end-first)
	for i := first; i < end; i++ {
		s.Lines = append(s.Lines, t.rowAt(t.dropped+i).render())
	}
	return s
}

// Plain returns the kept output as text without escape sequences: rows
// joined by newlines, soft-wrapped rows joined back into their lines, and
// empty rows at the end left out.
func (t *Term) Plain() string {
	var b []byte
	first, end := t.kept()
	if t.droppedRows() > 0 {
		// The oldest kept row may continue a line whose start is gone.
		skip := first
		for skip < end && t.rowAt(t.dropped+skip).wrapped {
			skip++
		}
		if skip < end {
			first = skip
		}
	}
	for i := first; i < end; i++ {
		rw := t.rowAt(t.dropped + i)
		if i > first && !rw.wrapped {
			b = append(b, '\n')
		}
		b = rw.appendPlain(b)
	}
	return string(b)
}
