package toolset

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// Source offers tools that may change while a session runs, made of parts
// (servers) that start in the background. Its methods are safe for
// concurrent use and never block.
type Source interface {
	// Part names, for people, what the source's parts are, in the
	// singular: "MCP server".
	Part() string
	// Tools returns the tools to declare to the model now.
	Tools() []core.Tool
	// Find returns the tool callable under name now, declared or not, or
	// nil when the source has none.
	Find(name string) core.Tool
	// Starting names the parts that have not finished their first start
	// (neither ready nor failed yet): the ones worth waiting for.
	Starting() []string
	// Failures lists the parts whose start failed, with why.
	Failures() []Failure
	// Changed returns a channel closed at the source's next change of
	// tools or of a part's state.
	Changed() <-chan struct{}
}

// Failure is a part of a source that could not start.
type Failure struct {
	// Name names the part, as Starting does.
	Name string
	// Err says why, for people and for the model.
	Err string
}

// Set is what a session reads its tools from: a Registry, or a View of one.
type Set interface {
	// Tools returns the tools to declare in the next request.
	Tools() []core.Tool
	// Find returns the tool callable under name now, or nil.
	Find(name string) core.Tool
	// Wait waits, bounded, for the parts still starting; see
	// Registry.Wait.
	Wait(ctx context.Context, note func(Note))
}

// DefaultLimit is how long Wait waits for parts still starting when the
// Options do not say.
const DefaultLimit = 10 * time.Second

// Options tune a Registry. The zero value waits DefaultLimit.
type Options struct {
	// Limit bounds Wait. Zero means DefaultLimit; a negative limit means
	// Wait does not wait (it still says what it did not wait for).
	Limit time.Duration
	// After is the clock for the limit; nil means time.After.
	After func(time.Duration) <-chan time.Time
	// Longer says how a person makes the wait longer, for the note that
	// gives up ("raise the setting x"); empty says nothing.
	Longer string
}

// Registry is the live set of a session's tools: built-in tools and the
// tools of its sources. Its methods are safe for concurrent use.
type Registry struct {
	builtin []core.Tool
	limit   time.Duration
	after   func(time.Duration) <-chan time.Time
	longer  string

	mu      sync.Mutex
	sources []Source
	// gaveUp holds the parts a Wait stopped waiting for: later waits do
	// not wait for them again.
	gaveUp map[part]bool
	// reported holds the failures already told: each part's error.
	reported map[part]string
}

// part is one part of a source, told apart from another source's part of
// the same name by its kind.
type part struct{ kind, name string }

// New returns a registry of the built-in tools and sources.
func New(builtin []core.Tool, opts Options, sources ...Source) *Registry {
	switch {
	case opts.Limit == 0:
		opts.Limit = DefaultLimit
	case opts.Limit < 0:
		opts.Limit = 0
	}
	if opts.After == nil {
		opts.After = time.After
	}
	return &Registry{builtin: slices.Clip(builtin), limit: opts.Limit, after: opts.After, longer: opts.Longer,
		sources: slices.Clone(sources), gaveUp: map[part]bool{}, reported: map[part]string{}}
}

// Static returns a registry of fixed tools, with no source: what a session
// made without a registry gets.
func Static(tools []core.Tool) *Registry { return New(tools, Options{}) }

// Add adds a source; its tools are in the next request. Tools whose names
// are taken (by a built-in tool or an earlier source) stay hidden.
func (r *Registry) Add(src Source) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources = append(r.sources, src)
}

func (r *Registry) currentSources() []Source {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sources)
}

// Tools returns the built-in tools, then each source's tools now, in
// order; a name already taken keeps its first tool.
func (r *Registry) Tools() []core.Tool {
	out := slices.Clone(r.builtin)
	seen := make(map[string]bool, len(out))
	for _, t := range out {
		seen[t.Spec().Name] = true
	}
	for _, src := range r.currentSources() {
		for _, t := range src.Tools() {
			if name := t.Spec().Name; !seen[name] {
				seen[name] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// Find returns the tool callable under name: a built-in tool, or the
// first source's tool of that name, declared or not. It returns nil when
// there is none.
func (r *Registry) Find(name string) core.Tool {
	for _, t := range r.builtin {
		if t.Spec().Name == name {
			return t
		}
	}
	for _, src := range r.currentSources() {
		if t := src.Find(name); t != nil {
			return t
		}
	}
	return nil
}

// NoteKind says what a Note tells.
type NoteKind int

// The kinds of note Wait gives.
const (
	// NoteWaiting: the wait begins, for Names, up to Limit.
	NoteWaiting NoteKind = iota + 1
	// NoteGaveUp: Names were still starting at the limit; the session
	// goes on without them (their tools come when they are ready).
	NoteGaveUp
	// NoteFailed: Names[0] could not start, because of Err.
	NoteFailed
)

// Note is what Wait tells a person or host about the parts it waits for.
type Note struct {
	Kind NoteKind
	// Part is what the parts are ("MCP server"; Source.Part).
	Part  string
	Names []string
	// Limit is the wait's bound (NoteWaiting, NoteGaveUp).
	Limit time.Duration
	// Err is why a part failed (NoteFailed).
	Err string
	// Longer says how to wait longer (NoteGaveUp; Options.Longer).
	Longer string
}

// String says the note in a sentence.
func (n Note) String() string {
	names := quoteAll(n.Names)
	parts := n.Part + "s"
	if len(n.Names) == 1 {
		parts = n.Part
	}
	switch n.Kind {
	case NoteWaiting:
		return fmt.Sprintf("waiting up to %s for %s still starting: %s", n.Limit, parts, names)
	case NoteGaveUp:
		if n.Limit == 0 {
			return fmt.Sprintf("not waiting for %s still starting (%s; the startup wait is 0): going on without their tools until they are ready", parts, names)
		}
		text := fmt.Sprintf("gave up waiting for %s after %s: %s; going on without their tools until they are ready", parts, n.Limit, names)
		if n.Longer != "" {
			text += " (" + n.Longer + " to wait longer)"
		}
		return text
	case NoteFailed:
		return fmt.Sprintf("%s %s failed to start, so its tools are missing: %s", n.Part, names, n.Err)
	}
	return names
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// Wait waits for the parts still starting their first time (except those
// an earlier wait gave up on) until they are ready or failed, the limit
// passes, or ctx ends. note is told, in order: the failures not told
// before, the parts it waits for (when any), those it gave up on at the
// limit, and the failures that came while it waited. Every front end
// calls it, through the session, before a run's first request. With a nil
// note it waits the same but tells nothing, leaving failures to the next
// caller that listens.
func (r *Registry) Wait(ctx context.Context, note func(Note)) {
	sources := r.currentSources()
	if len(sources) == 0 {
		return
	}
	if note == nil {
		note = func(Note) {}
	} else {
		defer r.reportFailures(sources, note)
		r.reportFailures(sources, note)
	}
	waiting := r.starting(sources)
	if len(waiting) == 0 {
		return
	}
	if r.limit <= 0 {
		r.giveUp(waiting, 0, note)
		return
	}
	for _, g := range waiting {
		note(Note{Kind: NoteWaiting, Part: g.kind, Names: g.names, Limit: r.limit})
	}
	deadline := r.after(r.limit)
	quit := make(chan struct{})
	defer close(quit)
	for {
		changed := anyChanged(sources, quit)
		pending := r.starting(sources)
		if len(pending) == 0 {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			r.giveUp(pending, r.limit, note)
			return
		case <-ctx.Done():
			return
		}
	}
}

// startingParts are the parts of one kind still starting.
type startingParts struct {
	kind  string
	names []string
}

// starting lists, source by source, the parts still starting and not
// given up on.
func (r *Registry) starting(sources []Source) []startingParts {
	var out []startingParts
	for _, src := range sources {
		kind, names := src.Part(), src.Starting()
		r.mu.Lock()
		names = slices.DeleteFunc(names, func(name string) bool { return r.gaveUp[part{kind, name}] })
		r.mu.Unlock()
		if len(names) > 0 {
			out = append(out, startingParts{kind, names})
		}
	}
	return out
}

// giveUp stops waiting for groups, for good, and says so.
func (r *Registry) giveUp(groups []startingParts, limit time.Duration, note func(Note)) {
	r.mu.Lock()
	for _, g := range groups {
		for _, n := range g.names {
			r.gaveUp[part{g.kind, n}] = true
		}
	}
	r.mu.Unlock()
	for _, g := range groups {
		note(Note{Kind: NoteGaveUp, Part: g.kind, Names: g.names, Limit: limit, Longer: r.longer})
	}
}

// reportFailures tells each failure of sources not told before (a part
// that fails again with another error is told again).
func (r *Registry) reportFailures(sources []Source, note func(Note)) {
	var fresh []Note
	for _, src := range sources {
		kind := src.Part()
		for _, f := range src.Failures() {
			p := part{kind, f.Name}
			r.mu.Lock()
			if r.reported[p] != f.Err {
				r.reported[p] = f.Err
				fresh = append(fresh, Note{Kind: NoteFailed, Part: kind, Names: []string{f.Name}, Err: f.Err})
			}
			r.mu.Unlock()
		}
	}
	for _, n := range fresh {
		note(n)
	}
}

// anyChanged returns a channel closed when any of sources changes. Its
// goroutines end with the first change or when quit is closed.
func anyChanged(sources []Source, quit <-chan struct{}) <-chan struct{} {
	if len(sources) == 1 {
		return sources[0].Changed()
	}
	out := make(chan struct{})
	var once sync.Once
	for _, src := range sources {
		ch := src.Changed()
		go func() {
			select {
			case <-ch:
				once.Do(func() { close(out) })
			case <-out:
			case <-quit:
			}
		}()
	}
	return out
}
