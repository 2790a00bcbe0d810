package editor

import (
	"slices"
	"strings"
	"unicode"
)

// line is one logical line of the draft and its cached soft wrap.
type line struct {
	runes []rune
	// starts holds the index of the first rune of each visual row; it is
	// nil when the line changed since it was last wrapped.
	starts []int
	// wrapWidth is the width starts was computed for.
	wrapWidth int
}

// touch marks the line as edited, so it is wrapped again when next needed.
func (l *line) touch() { l.starts = nil }

// buffer is the draft's text and cursor. Every edit touches only the line
// under the cursor (plus a neighbour when lines split or join), so a key
// press costs time in proportion to the line, not to the draft.
type buffer struct {
	lines    []*line
	row, col int
	// goal is the visual column the cursor keeps across vertical moves, or
	// -1 when the next vertical move should take it from the cursor.
	goal  int
	width int
	// cellWidth gives the display width of a rune in the buffer.
	cellWidth func(rune) int
	// version counts changes to the text.
	version int
}

func newBuffer(cellWidth func(rune) int) *buffer {
	return &buffer{lines: []*line{{}}, goal: -1, width: 1, cellWidth: cellWidth}
}

func (b *buffer) cur() *line { return b.lines[b.row] }

// empty reports whether the buffer holds no text at all.
func (b *buffer) empty() bool { return len(b.lines) == 1 && len(b.lines[0].runes) == 0 }

// first returns the first rune of the draft, or 0 when it is empty.
func (b *buffer) first() rune {
	if len(b.lines[0].runes) == 0 {
		return 0
	}
	return b.lines[0].runes[0]
}

// setWidth sets the wrap width; lines re-wrap lazily.
func (b *buffer) setWidth(w int) { b.width = max(w, 1) }

// rows returns the start of each visual row of l, wrapping it if needed.
func (b *buffer) rows(l *line) []int {
	if l.starts == nil || l.wrapWidth != b.width {
		l.starts = wrap(l.runes, b.width, b.cellWidth, l.starts[:0])
		l.wrapWidth = b.width
	}
	return l.starts
}

// segment returns which visual row of a line with row starts st holds col.
func segment(st []int, col int) int {
	k := 0
	for k+1 < len(st) && st[k+1] <= col {
		k++
	}
	return k
}

// span returns the rune range [from, to) of visual row k of l.
func (b *buffer) span(l *line, k int) (from, to int) {
	st := b.rows(l)
	if k+1 < len(st) {
		return st[k], st[k+1]
	}
	return st[k], len(l.runes)
}

func (b *buffer) widthOf(rs []rune) int {
	w := 0
	for _, r := range rs {
		w += b.cellWidth(r)
	}
	return w
}

// totalRows returns the number of visual rows of the whole draft.
func (b *buffer) totalRows() int {
	n := 0
	for _, l := range b.lines {
		n += len(b.rows(l))
	}
	return n
}

// cursorRow returns the visual row of the cursor, counted from the top.
func (b *buffer) cursorRow() int {
	n := 0
	for _, l := range b.lines[:b.row] {
		n += len(b.rows(l))
	}
	return n + segment(b.rows(b.cur()), b.col)
}

// cursorX returns the cursor's column within its visual row.
func (b *buffer) cursorX() int {
	l := b.cur()
	st := b.rows(l)
	return b.widthOf(l.runes[st[segment(st, b.col)]:b.col])
}

// onFirstRow and onLastRow report whether the cursor is on the draft's
// first or last visual row.
func (b *buffer) onFirstRow() bool { return b.row == 0 && segment(b.rows(b.cur()), b.col) == 0 }

func (b *buffer) onLastRow() bool {
	st := b.rows(b.cur())
	return b.row == len(b.lines)-1 && segment(st, b.col) == len(st)-1
}

// text joins the lines with "\n", writing each rune through put.
func (b *buffer) text(put func(*strings.Builder, rune)) string {
	var sb strings.Builder
	for i, l := range b.lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		for _, r := range l.runes {
			put(&sb, r)
		}
	}
	return sb.String()
}

// setText replaces the whole draft and puts the cursor at its end.
func (b *buffer) setText(rs []rune) {
	b.version++
	b.lines = []*line{{}}
	b.row, b.col, b.goal = 0, 0, -1
	b.insert(rs)
}

// insert puts rs (which may hold "\n") at the cursor and moves past it.
func (b *buffer) insert(rs []rune) {
	b.version++
	b.goal = -1
	l := b.cur()
	l.touch()
	nl := slices.Index(rs, '\n')
	if nl < 0 {
		l.runes = slices.Insert(l.runes, b.col, rs...)
		b.col += len(rs)
		return
	}
	tail := slices.Clone(l.runes[b.col:])
	l.runes = append(l.runes[:b.col], rs[:nl]...)
	var added []*line
	for rest := rs[nl+1:]; ; {
		i := slices.Index(rest, '\n')
		if i < 0 {
			added = append(added, &line{runes: append(slices.Clone(rest), tail...)})
			b.col = len(rest)
			break
		}
		added = append(added, &line{runes: slices.Clone(rest[:i])})
		rest = rest[i+1:]
	}
	b.lines = slices.Insert(b.lines, b.row+1, added...)
	b.row += len(added)
}

// remove deletes runes [from, to) of the cursor's line and puts the cursor
// at from.
func (b *buffer) remove(from, to int) {
	b.version++
	l := b.cur()
	l.runes = slices.Delete(l.runes, from, to)
	l.touch()
	b.col, b.goal = from, -1
}

// replace swaps runes [from, to) of the cursor's line for rs (no "\n") and
// puts the cursor after them.
func (b *buffer) replace(from, to int, rs []rune) {
	b.version++
	l := b.cur()
	l.runes = slices.Replace(l.runes, from, to, rs...)
	l.touch()
	b.col, b.goal = from+len(rs), -1
}

// joinPrev appends the cursor's line to the one above it.
func (b *buffer) joinPrev() {
	if b.row == 0 {
		return
	}
	b.version++
	prev := b.lines[b.row-1]
	b.col = len(prev.runes)
	prev.runes = append(prev.runes, b.cur().runes...)
	prev.touch()
	b.lines = slices.Delete(b.lines, b.row, b.row+1)
	b.row--
	b.goal = -1
}

// joinNext appends the line below to the cursor's line.
func (b *buffer) joinNext() {
	if b.row == len(b.lines)-1 {
		return
	}
	b.version++
	l := b.cur()
	l.runes = append(l.runes, b.lines[b.row+1].runes...)
	l.touch()
	b.lines = slices.Delete(b.lines, b.row+1, b.row+2)
	b.goal = -1
}

func (b *buffer) deleteBack() {
	if b.col == 0 {
		b.joinPrev()
		return
	}
	b.remove(b.col-1, b.col)
}

func (b *buffer) deleteForward() {
	if b.col == len(b.cur().runes) {
		b.joinNext()
		return
	}
	b.remove(b.col, b.col+1)
}

func (b *buffer) deleteWordBack() {
	if b.col == 0 {
		b.joinPrev()
		return
	}
	b.remove(wordStart(b.cur().runes, b.col), b.col)
}

func (b *buffer) deleteWordForward() {
	if b.col == len(b.cur().runes) {
		b.joinNext()
		return
	}
	from := b.col
	b.remove(from, wordEnd(b.cur().runes, b.col))
	b.col = from
}

func (b *buffer) deleteToLineStart() {
	if b.col == 0 {
		b.joinPrev()
		return
	}
	b.remove(0, b.col)
}

func (b *buffer) deleteToLineEnd() {
	if b.col == len(b.cur().runes) {
		b.joinNext()
		return
	}
	b.remove(b.col, len(b.cur().runes))
}

func (b *buffer) left() {
	b.goal = -1
	switch {
	case b.col > 0:
		b.col--
	case b.row > 0:
		b.row--
		b.col = len(b.cur().runes)
	}
}

func (b *buffer) right() {
	b.goal = -1
	switch {
	case b.col < len(b.cur().runes):
		b.col++
	case b.row < len(b.lines)-1:
		b.row++
		b.col = 0
	}
}

func (b *buffer) wordLeft() {
	if b.col == 0 {
		b.left()
		return
	}
	b.col, b.goal = wordStart(b.cur().runes, b.col), -1
}

func (b *buffer) wordRight() {
	if b.col == len(b.cur().runes) {
		b.right()
		return
	}
	b.col, b.goal = wordEnd(b.cur().runes, b.col), -1
}

func (b *buffer) lineStart() { b.col, b.goal = 0, -1 }
func (b *buffer) lineEnd()   { b.col, b.goal = len(b.cur().runes), -1 }

func (b *buffer) inputStart() { b.row, b.col, b.goal = 0, 0, -1 }

func (b *buffer) inputEnd() {
	b.row = len(b.lines) - 1
	b.col, b.goal = len(b.cur().runes), -1
}

// up moves the cursor one visual row up, keeping its column; it reports
// false when the cursor is already on the first row.
func (b *buffer) up() bool {
	l := b.cur()
	k := segment(b.rows(l), b.col)
	b.keepGoal(l, k)
	switch {
	case k > 0:
		b.col = b.colAt(l, k-1)
	case b.row > 0:
		b.row--
		l = b.cur()
		b.col = b.colAt(l, len(b.rows(l))-1)
	default:
		return false
	}
	return true
}

// down moves the cursor one visual row down; it reports false when the
// cursor is already on the last row.
func (b *buffer) down() bool {
	l := b.cur()
	st := b.rows(l)
	k := segment(st, b.col)
	b.keepGoal(l, k)
	switch {
	case k+1 < len(st):
		b.col = b.colAt(l, k+1)
	case b.row < len(b.lines)-1:
		b.row++
		b.col = b.colAt(b.cur(), 0)
	default:
		return false
	}
	return true
}

func (b *buffer) keepGoal(l *line, k int) {
	if b.goal < 0 {
		b.goal = b.widthOf(l.runes[b.rows(l)[k]:b.col])
	}
}

// colAt returns the rune index on visual row k of l closest to the goal
// column without passing it. On a row that wraps, the index stays before
// the row's end, which belongs to the next row.
func (b *buffer) colAt(l *line, k int) int {
	from, to := b.span(l, k)
	if k+1 < len(b.rows(l)) {
		to--
	}
	i, x := from, 0
	for i < to {
		w := b.cellWidth(l.runes[i])
		if x+w > b.goal {
			break
		}
		x += w
		i++
	}
	return i
}

// wordStart returns where the word before col begins: spaces are skipped,
// then everything up to the previous space.
func wordStart(rs []rune, col int) int {
	i := col
	for i > 0 && unicode.IsSpace(rs[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(rs[i-1]) {
		i--
	}
	return i
}

// wordEnd returns where the word after col ends.
func wordEnd(rs []rune, col int) int {
	i := col
	for i < len(rs) && unicode.IsSpace(rs[i]) {
		i++
	}
	for i < len(rs) && !unicode.IsSpace(rs[i]) {
		i++
	}
	return i
}

// wrap splits rs into visual rows of at most width cells, breaking after
// the last space that fits or, in a word longer than the row, at the edge.
// It appends the start index of each row to dst. A rune wider than the
// whole row gets a row of its own. When the last row is full, an empty row
// follows it so the cursor has a cell at the end of the line.
func wrap(rs []rune, width int, cellWidth func(rune) int, dst []int) []int {
	dst = append(dst, 0)
	start, x, brk := 0, 0, -1
	for i, r := range rs {
		w := cellWidth(r)
		for x+w > width && i > start {
			if brk <= start {
				brk = i
			}
			dst = append(dst, brk)
			start, x = brk, 0
			for _, q := range rs[brk:i] {
				x += cellWidth(q)
			}
			brk = -1
		}
		x += w
		if r == ' ' || r == '\t' {
			brk = i + 1
		}
	}
	if x >= width && len(rs) > start {
		dst = append(dst, len(rs))
	}
	return dst
}
