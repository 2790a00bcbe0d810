package editor

import (
	"slices"
	"strings"
	"sync/atomic"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"
)

// popupRows is the most rows the completion popup takes.
const popupRows = 8

type completionKind int

const (
	noCompletion completionKind = iota
	fileCompletion
	commandCompletion
)

// trigger is the word being completed: runes [from, to) of line row, and
// the query typed so far (the word after its sigil, up to the cursor).
type trigger struct {
	kind     completionKind
	row      int
	from, to int
	query    string
}

// item is a completion: text replaces the word, desc explains it. A
// mention is no file, whatever its name ends with.
type item struct {
	text    string
	desc    string
	mention bool
}

// completion is the popup's state.
type completion struct {
	trig     trigger
	items    []item
	sel, top int
	// picked is set once the person moves the selection: only then does
	// enter send the selected command instead of what was typed.
	picked    bool
	dismissed trigger
	// seq numbers file match jobs; stop cancels the one in flight.
	seq  int
	stop *atomic.Bool
	// base is the last query matched, and matched its result, from which a
	// longer query narrows.
	base    string
	matched []int32
	baseOK  bool
}

func (c *completion) open() bool { return c.trig.kind != noCompletion && len(c.items) > 0 }

func (c *completion) close() {
	c.cancel()
	c.trig, c.items, c.sel, c.top, c.picked = trigger{}, nil, 0, 0, false
	c.baseOK = false
}

func (c *completion) cancel() {
	if c.stop != nil {
		c.stop.Store(true)
		c.stop = nil
	}
}

// move moves the selection by d, wrapping around, and keeps it in view.
func (c *completion) move(d int) {
	n := len(c.items)
	c.sel = ((c.sel+d)%n + n) % n
	c.picked = true
	c.keepInView()
}

func (c *completion) keepInView() {
	if c.sel < c.top {
		c.top = c.sel
	}
	if c.sel >= c.top+popupRows {
		c.top = c.sel - popupRows + 1
	}
}

// trigger finds the word to complete at the cursor: the whole input when it
// is a single "/word", or an "@word" the cursor is in. Nothing completes in
// bash mode.
func (s *state) trigger() trigger {
	if s.mode() == ModeBash {
		return trigger{}
	}
	b := s.buf
	l := b.cur().runes
	if len(b.lines) == 1 && len(l) > 0 && l[0] == '/' && !slices.ContainsFunc(l, unicode.IsSpace) {
		return trigger{kind: commandCompletion, to: len(l), query: string(l[1:])}
	}
	if s.opts.Cwd == "" {
		return trigger{}
	}
	from := b.col
	for from > 0 && !unicode.IsSpace(l[from-1]) {
		from--
	}
	if from == b.col || l[from] != '@' {
		return trigger{}
	}
	to := b.col
	for to < len(l) && !unicode.IsSpace(l[to]) {
		to++
	}
	return trigger{kind: fileCompletion, row: b.row, from: from, to: to, query: string(l[from+1 : b.col])}
}

// refresh opens, updates or closes the popup for the word at the cursor.
// For files it returns the command of a fuzzy match, which only starts
// when the query changed.
func (s *state) refresh() tea.Cmd {
	c := &s.comp
	t := s.trigger()
	if t != c.dismissed {
		c.dismissed = trigger{}
	}
	if t.kind == noCompletion || t == c.dismissed {
		c.close()
		return nil
	}
	if t == c.trig {
		return nil
	}
	sameWord := c.trig.kind == t.kind && c.trig.row == t.row && c.trig.from == t.from
	c.trig = t
	if t.kind == commandCompletion {
		c.items = matchCommands(s.opts.Commands, t.query)
		c.sel, c.top, c.picked = 0, 0, false
		return nil
	}
	if s.mentioning(t) {
		c.cancel()
		c.seq++ // a file match still running is of no use
		c.items, c.sel, c.top, c.baseOK = matchMentions(s.opts.Mentions, t.query), 0, 0, false
		return nil
	}
	if !sameWord {
		c.items, c.sel, c.top, c.baseOK = nil, 0, 0, false
	}
	if !s.files.ready {
		return nil
	}
	return s.matchFiles(t.query)
}

// matchFiles starts matching query against the file index, cancelling the
// match in flight. A query that extends the last one matched only looks at
// what that one found.
func (s *state) matchFiles(query string) tea.Cmd {
	c := &s.comp
	c.cancel()
	c.seq++
	c.stop = new(atomic.Bool)
	job := fileMatchJob{seq: c.seq, query: query, paths: s.files.paths, stop: c.stop}
	if c.baseOK && c.base != "" && strings.HasPrefix(query, c.base) {
		job.cands = c.matched
	}
	return job.run
}

// fileMatches shows the result of the latest file match.
func (s *state) fileMatches(p fileMatches) {
	c := &s.comp
	if p.seq != c.seq || c.trig.kind != fileCompletion {
		return
	}
	c.stop = nil
	c.items = c.items[:0]
	for _, path := range p.best {
		c.items = append(c.items, item{text: "@" + path})
	}
	c.sel, c.top = 0, 0
	c.base, c.matched, c.baseOK = p.query, p.matched, p.matched != nil
}

// filesIndexed takes a new file index and matches the word at the cursor
// against it.
func (s *state) filesIndexed(p filesIndexed) tea.Cmd {
	if p.generation != s.files.generation {
		return nil
	}
	s.files.paths, s.files.ready = p.paths, true
	s.comp.baseOK = false
	if s.comp.trig.kind != fileCompletion || s.mentioning(s.comp.trig) {
		return nil
	}
	return s.matchFiles(s.comp.trig.query)
}

// completionKey handles a key while the popup is open, and reports whether
// it was a popup key.
func (s *state) completionKey(a action) (tea.Cmd, bool) {
	c := &s.comp
	switch {
	case a.has(actCompletionPrev):
		c.move(-1)
	case a.has(actCompletionNext):
		c.move(1)
	case a.has(actComplete):
		return s.accept(), true
	case a.has(actSubmit) && c.trig.kind == commandCompletion:
		// Enter sends what was typed, so a name that is no command is
		// reported as such, never swapped for a fuzzy match; a command
		// the person moved to with the arrows is taken.
		if c.picked {
			s.buf.setText([]rune(c.items[c.sel].text))
		}
		return s.submit(false), true
	case a.has(actSubmit):
		return s.accept(), true
	case a.has(actCloseCompletion):
		c.dismissed = c.trig
		c.close()
	default:
		return nil, false
	}
	return nil, true
}

// accept puts the selected completion in place of the word. A file or
// command is followed by a space; a directory is not, so completion goes on
// inside it.
func (s *state) accept() tea.Cmd {
	c := &s.comp
	text := c.items[c.sel].text
	if c.trig.kind == fileCompletion && !c.items[c.sel].mention && s.opts.AttachImages && IsImagePath(text) {
		return s.acceptImage(text)
	}
	rs := slices.DeleteFunc(sanitize(text), func(r rune) bool { return r == '\n' })
	s.buf.replace(c.trig.from, c.trig.to, rs)
	if !strings.HasSuffix(text, "/") {
		if l := s.buf.cur().runes; s.buf.col < len(l) && unicode.IsSpace(l[s.buf.col]) {
			s.buf.right()
		} else {
			s.buf.insert([]rune{' '})
		}
	}
	c.trig = trigger{}
	return s.changed()
}

// mentioning reports whether t completes a mention rather than a file: an
// @ word holding a colon, when there are mentions.
func (s *state) mentioning(t trigger) bool {
	return t.kind == fileCompletion && len(s.opts.Mentions) > 0 && strings.Contains(t.query, ":")
}

// matchMentions returns the mentions that start with query, in their
// given order, then those that only contain it.
func matchMentions(ms []Command, query string) []item {
	var items, others []item
	for _, m := range ms {
		it := item{text: "@" + m.Name, desc: m.Description, mention: true}
		switch {
		case strings.HasPrefix(m.Name, query):
			items = append(items, it)
		case strings.Contains(m.Name, query):
			others = append(others, it)
		}
	}
	return append(items, others...)
}

// matchCommands returns the command named query, then those whose names
// start with it, in their given order, then those that only fuzzy-match
// it, best first.
func matchCommands(cmds []Command, query string) []item {
	q := strings.ToLower(query)
	var items []item
	var others []Command
	for _, c := range cmds {
		switch name := strings.ToLower(c.Name); {
		case name == q:
			items = slices.Insert(items, 0, item{text: "/" + c.Name, desc: c.Description})
		case strings.HasPrefix(name, q):
			items = append(items, item{text: "/" + c.Name, desc: c.Description})
		default:
			others = append(others, c)
		}
	}
	if q == "" || len(others) == 0 {
		return items
	}
	names := make([]string, len(others))
	for i, c := range others {
		names[i] = c.Name
	}
	for _, m := range fuzzy.Find(query, names) {
		c := others[m.Index]
		items = append(items, item{text: "/" + c.Name, desc: c.Description})
	}
	return items
}
