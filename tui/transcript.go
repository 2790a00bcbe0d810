package tui

import (
	"slices"
	"strings"
)

// item is one thing in the transcript: a user message, an answer, a tool
// call, a bash run, a notice. render draws it at a width; the transcript
// caches the result until the item, the width or the display settings
// change, so a finished item is drawn once while it stays near the screen.
// What is off screen is not kept drawn: once the cached drawings pass a
// budget, those of the items drawn longest ago are dropped (the items are
// kept, and drawn again if they come back into view).
type item interface {
	render(rc *renderContext) string
}

// forgetter is an item that keeps drawing state of its own (a finished
// answer's markdown streams): forget drops it when the transcript drops
// the item's drawing. The item must draw the same again afterwards.
type forgetter interface {
	item
	forget()
}

// linesItem is an item that can produce its lines itself, reusing what it
// drew before (a streaming answer redraws only its open block). The lines
// end with the blank line that separates items; the transcript keeps the
// slice until the next call.
type linesItem interface {
	item
	lines(rc *renderContext) []string
}

// entry is an item with its cached drawing.
type entry struct {
	it       item
	ver      int // bumped by touch when the item changes
	lines    []string
	key      cacheKey
	rendered bool
	used     int  // the transcript's view count when the drawing was last used
	kept     bool // the entry is in the transcript's drawn list
}

// cacheKey says what a cached drawing was made for.
type cacheKey struct {
	width, gen, ver int
}

// position is a line in the transcript: line off of item idx.
type position struct{ idx, off int }

// transcript is the scrollable list of items. Only the items on screen are
// drawn. While follow is set the view sticks to the bottom (the stream);
// scrolling up clears it, and reaching the bottom again sets it.
type transcript struct {
	entries []*entry
	follow  bool
	top     position // first visible line when not following
	gen     int      // bumped to redraw everything (theme, toggles)
	// drawn lists the entries that hold a drawing, so that trim finds
	// them without walking the whole transcript; views counts calls of view.
	drawn []*entry
	views int
	// older, when set, gives the items before the first entry, a chunk
	// at a time, oldest first; none when there are no more. A resumed
	// session's older items are made only when the view comes to them.
	older func() []item
}

// keptScreens is how many screens of drawn lines the transcript keeps
// (at least minKeptLines): enough to scroll a few pages back and forth
// without drawing again, and bounded however long the session grows.
const (
	keptScreens  = 8
	minKeptLines = 400
)

func newTranscript() transcript { return transcript{follow: true} }

// add appends an item and returns its entry.
func (t *transcript) add(it item) *entry {
	e := &entry{it: it}
	t.entries = append(t.entries, e)
	return e
}

// loadOlder puts the next chunk of older items before the first entry and
// returns how many it put, keeping a scrolled-back view on the same lines.
func (t *transcript) loadOlder() int {
	if t.older == nil {
		return 0
	}
	items := t.older()
	if len(items) == 0 {
		t.older = nil
		return 0
	}
	es := make([]*entry, len(items), len(items)+len(t.entries))
	for i, it := range items {
		es[i] = &entry{it: it}
	}
	t.entries = append(es, t.entries...)
	t.top.idx += len(items)
	return len(items)
}

// loadAll makes every older item.
func (t *transcript) loadAll() {
	for t.loadOlder() > 0 {
	}
}

// remove takes entry i out, keeping a scrolled-back view on the same
// lines.
func (t *transcript) remove(i int) {
	t.entries = append(t.entries[:i], t.entries[i+1:]...)
	switch {
	case t.top.idx > i:
		t.top.idx--
	case t.top.idx == i:
		t.top.off = 0
	}
}

// touch marks an entry changed.
func (e *entry) touch() { e.ver++ }

// invalidate redraws every item on its next view.
func (t *transcript) invalidate() { t.gen++ }

// clear removes every item.
func (t *transcript) clear() {
	t.entries = nil
	t.drawn = nil
	t.follow = true
	t.top = position{}
	t.older = nil
}

// linesOf returns the drawing of entry i, from the cache when it is
// current. How often a streaming item is drawn again is the model's frame
// clock's business: the transcript draws what changed whenever it is asked.
func (t *transcript) linesOf(i int, rc *renderContext) []string {
	e := t.entries[i]
	e.used = t.views
	if !e.kept {
		e.kept = true
		t.drawn = append(t.drawn, e)
	}
	key := cacheKey{width: rc.width, gen: t.gen, ver: e.ver}
	if e.rendered && e.key == key {
		return e.lines
	}
	if li, ok := e.it.(linesItem); ok {
		e.lines = li.lines(rc)
	} else {
		e.lines = append(strings.Split(e.it.render(rc), "\n"), "") // one blank line after each item
	}
	e.key, e.rendered = key, true
	return e.lines
}

// view returns exactly height lines of the transcript (padded at the top
// when it is short).
func (t *transcript) view(rc *renderContext, height int) []string {
	if height <= 0 {
		return nil
	}
	t.views++
	defer t.trim(max(keptScreens*height, minKeptLines))
	if !t.follow {
		if lines, ok := t.viewFrom(rc, height); ok {
			return lines
		}
		t.follow = true
	}
	return t.viewBottom(rc, height)
}

// trim drops drawings, those used longest ago first, until the kept ones
// hold at most budget/2 lines, once they hold more than budget. The
// drawings used by the view just made are always kept.
func (t *transcript) trim(budget int) {
	n := 0
	for _, e := range t.drawn {
		n += len(e.lines)
	}
	if n <= budget {
		return
	}
	slices.SortStableFunc(t.drawn, func(a, b *entry) int { return b.used - a.used })
	n = 0
	keep := 0
	for _, e := range t.drawn {
		if e.used != t.views && n+len(e.lines) > budget/2 {
			break
		}
		n += len(e.lines)
		keep++
	}
	for _, e := range t.drawn[keep:] {
		e.lines, e.rendered, e.kept = nil, false, false
		if f, ok := e.it.(forgetter); ok {
			f.forget()
		}
	}
	clear(t.drawn[keep:])
	t.drawn = t.drawn[:keep]
}

// viewBottom collects items from the newest back until the screen is full.
func (t *transcript) viewBottom(rc *renderContext, height int) []string {
	for t.older != nil && t.linesBelow(rc, 0, height) < height && t.loadOlder() > 0 {
	}
	var chunks [][]string
	n := 0
	for i := len(t.entries) - 1; i >= 0 && n < height; i-- {
		l := t.linesOf(i, rc)
		chunks = append(chunks, l)
		n += len(l)
	}
	out := make([]string, 0, height)
	for i := n; i < height; i++ {
		out = append(out, "")
	}
	skip := max(n-height, 0)
	for i := len(chunks) - 1; i >= 0; i-- {
		c := chunks[i]
		if skip >= len(c) {
			skip -= len(c)
			continue
		}
		out = append(out, c[skip:]...)
		skip = 0
	}
	return out
}

// linesBelow counts the lines of the entries from idx on, stopping once
// they reach limit.
func (t *transcript) linesBelow(rc *renderContext, idx, limit int) int {
	n := 0
	for i := len(t.entries) - 1; i >= idx && n < limit; i-- {
		n += len(t.linesOf(i, rc))
	}
	return n
}

// viewFrom draws from t.top down. ok is false when the items below top do
// not fill the screen: then the view belongs at the bottom.
func (t *transcript) viewFrom(rc *renderContext, height int) ([]string, bool) {
	out := make([]string, 0, height)
	off := t.top.off
	for i := t.top.idx; i < len(t.entries) && len(out) < height; i++ {
		l := t.linesOf(i, rc)
		if off < len(l) {
			out = append(out, l[off:]...)
		}
		off = 0
	}
	if len(out) < height {
		return nil, false
	}
	return out[:height], true
}

// topWhenFollowing is the first visible line of the bottom view.
func (t *transcript) topWhenFollowing(rc *renderContext, height int) position {
	n := 0
	for i := len(t.entries) - 1; i >= 0; i-- {
		l := len(t.linesOf(i, rc))
		if n+l >= height {
			return position{idx: i, off: n + l - height}
		}
		n += l
	}
	return position{}
}

// scroll moves the view by delta lines (negative: up, toward older items).
func (t *transcript) scroll(rc *renderContext, height, delta int) {
	if delta == 0 || len(t.entries) == 0 {
		return
	}
	step := delta
	if t.follow {
		if delta > 0 {
			return
		}
		t.top = t.topWhenFollowing(rc, height)
		t.follow = false
	}
	p := t.top
	for delta < 0 {
		if p.off > 0 {
			step := min(p.off, -delta)
			p.off -= step
			delta += step
			continue
		}
		if p.idx == 0 {
			n := t.loadOlder()
			if n == 0 {
				break
			}
			p.idx += n
		}
		p.idx--
		p.off = len(t.linesOf(p.idx, rc))
	}
	for delta > 0 && p.idx < len(t.entries) {
		l := len(t.linesOf(p.idx, rc))
		if p.off+delta < l {
			p.off += delta
			delta = 0
			break
		}
		delta -= l - p.off
		p.idx++
		p.off = 0
	}
	t.top = p
	if p.idx >= len(t.entries) {
		t.follow = true
		return
	}
	// Reaching the bottom resumes following the stream; so does a step
	// down that ends within one more step of it, as after page up then
	// page down while the stream grew by a few lines.
	if _, ok := t.viewFrom(rc, height+max(step, 1)); !ok {
		t.follow = true
	}
}

// home shows the first line; end follows the stream again.
func (t *transcript) home() {
	t.loadAll()
	t.follow, t.top = false, position{}
}
func (t *transcript) end() { t.follow = true }
