package extension

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/toolset"
)

// Host is the session extensions work with: it asks questions (dialogs),
// shows UI events and takes user messages. *agent.Session is one, with an
// adapter for SendUserMessage.
type Host interface {
	core.Asker
	// Show publishes a UI event (core.Notice, StatusChanged, ...).
	Show(e core.Event)
	// SendUserMessage sends text as the person's message: a run when
	// idle; deliverAs "steer" or "followUp" while one runs.
	SendUserMessage(text, deliverAs string) error
}

// EntryKeeper is a Host that keeps extensions' entries in the session and
// reads them back, and names the session (protocol version 2's
// append_entry, get_entries and set_session_name); *agent.Session is one.
// Entries are in file order, with the branch tip.
type EntryKeeper interface {
	AppendCustom(customType string, data json.RawMessage) (string, error)
	Entries() ([]session.Entry, string, error)
	SetName(name string) error
}

// Options configure a Manager.
type Options struct {
	// Cwd is the session's working directory, where extensions from
	// settings run.
	Cwd string
	// Mode names the front end for the extensions ("tui", "rpc", ...).
	Mode string
	// UI lists the UI methods the front end renders; the rest are
	// refused with CodeNoUI.
	UI []core.UIMethod
	// CairnVersion is told to extensions.
	CairnVersion string
	// Getenv reads cairn's environment for core/child; nil means
	// os.Getenv.
	Getenv func(string) string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// StartTimeout bounds each extension's initialize (default 10 s).
	StartTimeout time.Duration
	// EventTimeout bounds each event handler while no dialog of its
	// extension is open (default 30 s).
	EventTimeout time.Duration
	// DialogTimeout bounds a dialog whose call gives no timeout; zero
	// means none (a person is there to answer).
	DialogTimeout time.Duration
	// LogDir, when set, keeps each extension's stderr in <LogDir>/<name>.log
	// (started afresh once past 5 MiB); the last lines are in errors
	// either way.
	LogDir string
	// Flags are the command line's flags cairn does not know, told to
	// the extensions at initialize (see CheckFlags).
	Flags []Flag
	// Trace, when set, is given every line exchanged with an extension
	// (in: from it), for tests and debugging.
	Trace func(extension string, in bool, line []byte)
}

// Manager runs a session's extensions. It is the extensions' tool source
// for the session's registry (a toolset.Source). Its methods are safe for
// concurrent use.
type Manager struct {
	opts Options
	exts []*extension

	mu       sync.Mutex
	h        Host
	attached chan struct{}
	change   chan struct{}
	shut     bool
	started  bool
	// starting counts the extensions' start goroutines; Close waits for
	// them, so nothing (a process, a log file) outlives it.
	starting sync.WaitGroup
	// observing is the goroutine telling extensions the session's
	// events (observe); Close ends it through stopObserving.
	observing     sync.WaitGroup
	stopObserving chan struct{}
	// early are UI events shown before Attach, shown at Attach in order.
	early []core.Event
}

// New returns a manager of the extensions configs, not yet started.
func New(configs []Config, opts Options) *Manager {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 10 * time.Second
	}
	if opts.EventTimeout <= 0 {
		opts.EventTimeout = 30 * time.Second
	}
	m := &Manager{opts: opts, attached: make(chan struct{}), change: make(chan struct{}), stopObserving: make(chan struct{})}
	for _, c := range configs {
		m.exts = append(m.exts, &extension{m: m, cfg: c, state: Starting, updates: map[string]func(core.ToolUpdate){},
			ops: map[*opCtx]struct{}{}, exited: make(chan struct{})})
	}
	return m
}

// Start starts every extension in parallel and returns at once; Wait (the
// registry's) waits for them, bounded.
func (m *Manager) Start() {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return
	}
	m.started = true
	m.mu.Unlock()
	for _, e := range m.exts {
		m.starting.Add(1)
		go func() {
			defer m.starting.Done()
			e.start(context.Background())
		}()
	}
}

// WaitStarted waits until no extension is still starting (each start is
// bounded by Options.StartTimeout) or ctx ends, so that a list of their
// commands asked for right after Start holds them, as pi's does.
func (m *Manager) WaitStarted(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		m.starting.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// Attach gives the extensions their session. Dialogs and messages asked
// for before it wait for it (or for Close). When the session is a
// Subscriber, the events version 2 extensions observe are told them from
// now on.
func (m *Manager) Attach(h Host) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.h != nil || m.shut {
		return
	}
	m.h = h
	close(m.attached)
	for _, ev := range m.early {
		h.Show(ev)
	}
	m.early = nil
	if sub, ok := h.(Subscriber); ok && len(m.exts) > 0 {
		events, stop := sub.Subscribe()
		m.observing.Add(1)
		go m.observe(events, stop, m.stopObserving)
	}
}

// host returns the session, waiting for Attach; nil after Close.
func (m *Manager) host(ctx context.Context) Host {
	m.mu.Lock()
	attached := m.attached
	m.mu.Unlock()
	select {
	case <-attached:
	case <-ctx.Done():
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.shut {
		return nil
	}
	return m.h
}

// maxEarly bounds the UI events kept for a session not attached yet.
const maxEarly = 256

// showInOrder publishes e on the session, or keeps it for Attach (up to
// maxEarly: the oldest go first), so an extension's status lines and
// widgets keep their order whenever they come. It reports false once the
// session has ended.
func (m *Manager) showInOrder(e core.Event) bool {
	m.mu.Lock()
	if m.shut {
		m.mu.Unlock()
		return false
	}
	h := m.h
	if h == nil {
		if len(m.early) == maxEarly {
			m.early = m.early[1:]
		}
		m.early = append(m.early, e)
		m.mu.Unlock()
		return true
	}
	m.mu.Unlock()
	h.Show(e)
	return true
}

// show publishes e on the session, when there is one.
func (m *Manager) show(e core.Event) {
	m.mu.Lock()
	h := m.h
	m.mu.Unlock()
	if h != nil {
		h.Show(e)
	}
}

// Close stops every extension (session_shutdown first, for those that
// handle it), in parallel, and waits for them.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.shut {
		m.mu.Unlock()
		return
	}
	m.shut = true
	if m.h == nil {
		close(m.attached)
	}
	close(m.stopObserving)
	m.mu.Unlock()
	m.observing.Wait()
	var wg sync.WaitGroup
	for _, e := range m.exts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.stop()
		}()
	}
	wg.Wait()
	// A start that was under way is cut short by the stop (its process
	// killed, its handshake ended by the closed connection): bounded.
	m.starting.Wait()
}

func (m *Manager) closing() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shut
}

func (m *Manager) ui() []core.UIMethod { return m.opts.UI }

func (m *Manager) hasUI() bool {
	for _, u := range m.opts.UI {
		if u.Dialog() {
			return true
		}
	}
	return false
}

// changed wakes whoever waits on Changed.
func (m *Manager) changed() {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(m.change)
	m.change = make(chan struct{})
}

// Part implements toolset.Source.
func (m *Manager) Part() string { return "extension" }

// Tools implements toolset.Source: the active tools of the ready
// extensions, in load order.
func (m *Manager) Tools() []core.Tool {
	var out []core.Tool
	for _, e := range m.exts {
		e.mu.Lock()
		if e.state == Ready {
			for _, t := range e.tools {
				if t.active {
					out = append(out, t)
				}
			}
		}
		e.mu.Unlock()
	}
	return out
}

// Find implements toolset.Source: an active tool of a ready extension.
func (m *Manager) Find(name string) core.Tool {
	for _, t := range m.Tools() {
		if t.Spec().Name == name {
			return t
		}
	}
	return nil
}

// Starting implements toolset.Source.
func (m *Manager) Starting() []string {
	var out []string
	for _, e := range m.exts {
		switch st, _ := e.snapshot(); st {
		case Starting:
			out = append(out, e.cfg.Name)
		case Ready:
			// A host's members still loading are worth waiting for too.
			out = append(out, e.loadingMembers()...)
		}
	}
	return out
}

// Failures implements toolset.Source: the extensions that failed to
// start, with why and the last lines of their stderr.
func (m *Manager) Failures() []toolset.Failure {
	var out []toolset.Failure
	for _, e := range m.exts {
		if st, err := e.snapshot(); st == Failed && err != nil {
			out = append(out, toolset.Failure{Name: e.cfg.Name, Err: err.Error()})
		}
		e.mu.Lock()
		for _, mb := range e.members {
			if mb.State == "failed" {
				out = append(out, toolset.Failure{Name: e.cfg.Name + ":" + mb.Name, Err: mb.Error})
			}
		}
		e.mu.Unlock()
	}
	return out
}

// Changed implements toolset.Source.
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.change
}

// Status is an extension as `cairn ext list` shows it.
type Status struct {
	Config Config
	State  State
	Err    error
	// Name is the name the extension gave itself, if any.
	Name     string
	Tools    []ToolDef
	Active   []bool
	Commands []CommandDef
	Events   []string
	// Note says what of a pi extension's registrations cairn does not
	// use yet (events it does not send, renderers).
	Note string
}

// Statuses reports every extension, in load order; the members a host
// extension runs (protocol version 2) follow it, each as an extension of
// its own named host:member, with the tools, commands and events it
// registered.
func (m *Manager) Statuses() []Status {
	out := make([]Status, 0, len(m.exts))
	for _, e := range m.exts {
		e.mu.Lock()
		st := Status{Config: e.cfg, State: e.state, Err: e.err, Name: e.name, Commands: append([]CommandDef(nil), e.commands...)}
		for _, t := range e.tools {
			st.Tools = append(st.Tools, t.def)
			st.Active = append(st.Active, t.active)
		}
		for ev := range e.events {
			st.Events = append(st.Events, ev)
		}
		if len(e.members) > 0 {
			// Its members show what it registered, each its own part.
			st.Tools, st.Active, st.Commands, st.Events = nil, nil, nil, nil
		}
		e.mu.Unlock()
		out = append(out, st)
		out = append(out, e.memberStatuses()...)
	}
	return out
}

// memberStatuses are the members of a host extension as extensions: each
// with its own tools, commands and events, or its load error.
func (e *extension) memberStatuses() []Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Status, 0, len(e.members))
	for _, mb := range e.members {
		cfg := e.cfg
		cfg.Name, cfg.Path = e.cfg.Name+":"+mb.Name, mb.Path
		st := Status{Config: cfg, Name: mb.Name, State: Ready, Events: mb.Events}
		switch mb.State {
		case "failed":
			st.State, st.Err = Failed, errors.New(mb.Error)
		case "loading":
			st.State = Starting
		}
		for _, t := range e.tools {
			if slices.Contains(mb.Tools, t.def.Name) {
				st.Tools = append(st.Tools, t.def)
				st.Active = append(st.Active, t.active)
			}
		}
		for _, c := range e.commands {
			if slices.Contains(mb.Commands, c.Name) {
				st.Commands = append(st.Commands, c)
			}
		}
		var notes []string
		if len(mb.EventsNotSent) > 0 {
			notes = append(notes, "cairn does not send "+strings.Join(mb.EventsNotSent, ", "))
		}
		if len(mb.Renderers) > 0 {
			notes = append(notes, "renderers cairn does not draw: "+strings.Join(mb.Renderers, ", "))
		}
		if st.Err == nil && len(notes) > 0 {
			st.Note = strings.Join(notes, "; ")
		}
		out = append(out, st)
	}
	return out
}
