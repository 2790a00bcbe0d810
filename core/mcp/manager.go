package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Options tune a Manager. The zero value works.
type Options struct {
	// Dial connects to a server; nil means DialSDK.
	Dial Dialer
	// LogDir receives each stdio server's stderr; empty keeps none.
	LogDir string
	// Report is told, once per server, when a server fails to start.
	// It may be called from any goroutine.
	Report func(msg string)
	// Listed, when set, is called with a server's tools each time they
	// are listed.
	Listed func(s Server, tools []ToolInfo)
	// Cache, when set, stores each listing, and gives each server the
	// tools of its last listing as Status.LastTools.
	Cache *ToolCache
	// Backoff is the delay before restart attempt n (1, 2, ...); nil
	// means 1s doubling up to 30s.
	Backoff func(n int) time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Manager runs the configured servers: each starts in the background
// when the Manager is made, and is restarted when it dies. Its methods
// are safe for concurrent use.
type Manager struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	servers map[string]*running
	order   []string
	changed chan struct{} // closed and replaced on every state change
	version uint64        // counts the state changes
	closed  bool          // Close has begun: no server starts again
}

// running is the Manager's record of one server.
type running struct {
	status   Status
	conn     Conn
	log      *stderrLog
	reported bool
	// settled is set once the server's first start ended, ready or not:
	// until then a session may wait for it (Starting).
	settled bool
	// active is true while a keep goroutine looks after the server.
	active bool
	// kick asks keep to restart the server now (Reconnect).
	kick chan struct{}
}

// Start makes a Manager and starts every enabled server of cfg in the
// background. It never waits for a server.
func Start(cfg Config, opts Options) *Manager {
	if opts.Dial == nil {
		opts.Dial = DialSDK
	}
	if opts.Backoff == nil {
		opts.Backoff = defaultBackoff
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: opts, ctx: ctx, cancel: cancel, servers: map[string]*running{}, changed: make(chan struct{})}
	var last map[string][]ToolInfo
	if opts.Cache != nil {
		last = opts.Cache.Lookup(cfg.Servers)
	}
	for _, s := range cfg.Servers {
		m.addLocked(s, last[s.Name])
	}
	return m
}

// addLocked records s, with the tools it had last time, and starts it in
// the background unless it is disabled. m.mu is held, or m is not shared
// yet.
func (m *Manager) addLocked(s Server, last []ToolInfo) {
	r := &running{status: Status{Server: s, State: Starting, LastTools: last}, kick: make(chan struct{}, 1)}
	m.servers[s.Name] = r
	m.order = append(m.order, s.Name)
	if s.Disabled {
		r.status.State, r.settled = Stopped, true
		return
	}
	if s.Transport == TransportStdio {
		r.log = openStderrLog(m.opts.LogDir, s.Name)
		r.status.Log = r.log.path
	}
	r.active = true
	m.wg.Add(1)
	go m.keep(r)
}

// Add starts one more server in the background, as if it had been
// configured from the start: a session waits for it before its next run
// and declares its tools once it is ready. It fails when the name is taken
// or the manager is closing.
func (m *Manager) Add(s Server) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closed || m.ctx.Err() != nil:
		return errors.New("the MCP servers are shutting down")
	case m.servers[s.Name] != nil:
		return fmt.Errorf("an MCP server named %q is already configured (from %s)", s.Name, m.servers[s.Name].status.Server.Source)
	}
	var last []ToolInfo
	if m.opts.Cache != nil {
		last = m.opts.Cache.Lookup([]Server{s})[s.Name]
	}
	m.addLocked(s, last)
	m.changedLocked()
	return nil
}

func defaultBackoff(n int) time.Duration {
	d := time.Second << min(n-1, 5)
	return min(d, 30*time.Second)
}

// errReconnect ends serve when the person asked for a reconnection.
var errReconnect = errors.New("reconnecting")

// keep starts r's server and restarts it when it ends, until the manager
// closes or the starts keep failing.
func (m *Manager) keep(r *running) {
	defer m.wg.Done()
	s := r.status.Server
	failures := 0
	for attempt := 1; ; attempt++ {
		conn, tools, prompts, err := m.start(r)
		if err != nil {
			failures++
			final := failures >= MaxStartFailures
			m.failed(r, err, final)
			if final {
				if m.giveUp(r) {
					return
				}
				failures, attempt = 0, 0
				continue
			}
			alive, kicked := m.wait(r, m.opts.Backoff(attempt))
			if !alive {
				return
			}
			if kicked {
				failures, attempt = 0, 0
			}
			continue
		}
		failures = 0
		m.listed(s, tools)
		m.set(r, func(st *Status) {
			st.State, st.Tools, st.Prompts, st.Err, st.Stderr = Ready, tools, prompts, nil, ""
		}, conn)
		began := m.opts.Now()
		waitErr := m.serve(r, conn)
		_ = conn.Close()
		if m.ctx.Err() != nil {
			return
		}
		if errors.Is(waitErr, errReconnect) {
			attempt = 0
			continue
		}
		if waitErr == nil {
			waitErr = errors.New("the server closed the connection")
		}
		m.set(r, func(st *Status) { st.State, st.Tools, st.Prompts, st.Err = Starting, nil, nil, waitErr }, nil)
		if m.opts.Now().Sub(began) > time.Minute {
			attempt = 0 // it ran well for a while: restart promptly
		}
		alive, kicked := m.wait(r, m.opts.Backoff(max(attempt, 1)))
		if !alive {
			return
		}
		if kicked {
			attempt = 0
		}
	}
}

// giveUp ends r's keep after its last failed start, unless a reconnection
// was asked for meanwhile (then it returns false and keep goes on).
func (m *Manager) giveUp(r *running) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	select {
	case <-r.kick:
		if !m.closed {
			return false
		}
	default:
	}
	r.active = false
	return true
}

// Reconnect restarts the server named name now: a ready server's
// connection is closed and a new one made, a failing server is tried again
// without waiting out its delay, and one given up on is started again. It
// returns at once; the server is Starting until the new connection is
// ready (Conn waits for it). Disabled servers are not started.
func (m *Manager) Reconnect(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.servers[name]
	switch {
	case !ok:
		return fmt.Errorf("no MCP server named %q is configured", name)
	case r.status.Server.Disabled:
		return fmt.Errorf("MCP server %q is disabled in %s", name, r.status.Server.Source)
	case m.closed:
		return errors.New("the MCP servers are shutting down")
	}
	r.status.State, r.status.Tools, r.status.Prompts, r.status.Err, r.status.Stderr = Starting, nil, nil, nil, ""
	r.conn = nil
	m.changedLocked()
	if r.active {
		signal(r.kick)
		return nil
	}
	r.active = true
	m.wg.Add(1)
	go m.keep(r)
	return nil
}

// serve follows a ready server until its connection ends or the manager
// closes (keep then closes the connection: Close may have listed the
// connections before this one was set), listing its tools again whenever
// the server says they changed.
func (m *Manager) serve(r *running, conn Conn) error {
	done := make(chan error, 1)
	go func() { done <- conn.Wait() }()
	for {
		select {
		case err := <-done:
			return err
		case <-m.ctx.Done():
			return nil
		case <-r.kick:
			return errReconnect
		case <-conn.PromptsChanged():
			s := r.status.Server
			ctx, cancel := context.WithTimeout(m.ctx, s.Timeout)
			prompts, err := conn.ListPrompts(ctx)
			cancel()
			if err != nil {
				continue
			}
			m.set(r, func(st *Status) { st.Prompts = prompts }, nil)
		case <-conn.ToolsChanged():
			s := r.status.Server
			ctx, cancel := context.WithTimeout(m.ctx, s.Timeout)
			tools, err := conn.ListTools(ctx)
			cancel()
			if err != nil {
				continue // a dying connection ends through done
			}
			m.listed(s, tools)
			m.set(r, func(st *Status) { st.Tools = tools }, nil)
		}
	}
}

// listed hands a server's fresh tool list to Options.Listed and the cache.
func (m *Manager) listed(s Server, tools []ToolInfo) {
	if m.opts.Listed != nil {
		m.opts.Listed(s, tools)
	}
	if m.opts.Cache != nil {
		m.opts.Cache.Store(s, tools)
	}
}

// start connects once and lists the tools and prompts, within the
// server's timeout. A server whose prompts cannot be listed starts without
// them.
func (m *Manager) start(r *running) (Conn, []ToolInfo, []PromptInfo, error) {
	s := r.status.Server
	select {
	case <-r.kick: // this start is the reconnection asked for
	default:
	}
	m.set(r, func(st *Status) { st.State = Starting }, nil)
	var stderr *stderrLog
	if r.log != nil {
		stderr = r.log
		stderr.start(s.CommandLine(), m.opts.Now())
	}
	ctx, cancel := context.WithTimeout(m.ctx, s.Timeout)
	defer cancel()
	var w io.Writer = discard
	if stderr != nil {
		w = stderr
	}
	conn, err := m.opts.Dial(ctx, s, w)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer to initialize within %s", s.Timeout)
		}
		return nil, nil, nil, err
	}
	tools, err := conn.ListTools(ctx)
	if err != nil {
		_ = conn.Close()
		return nil, nil, nil, fmt.Errorf("list tools: %w", err)
	}
	prompts, _ := conn.ListPrompts(ctx)
	return conn, tools, prompts, nil
}

// failed records a failed start and reports the first one.
func (m *Manager) failed(r *running, err error, final bool) {
	var tail string
	if r.log != nil {
		tail = r.log.lastLines()
	}
	var report string
	m.set(r, func(st *Status) {
		st.State, st.Err, st.Stderr, st.Tools, st.Prompts = Failed, err, tail, nil, nil
		if final {
			st.State = Stopped
		}
		if !r.reported {
			r.reported = true
			report = FailureText(*st)
		}
	}, nil)
	if report != "" && m.opts.Report != nil && m.ctx.Err() == nil {
		m.opts.Report(report)
	}
}

// set changes r's status under the lock and wakes the waiters. conn, when
// not nil or when the state leaves Ready, replaces the live connection.
func (m *Manager) set(r *running, change func(*Status), conn Conn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	change(&r.status)
	if r.status.State != Starting {
		r.settled = true
	}
	if conn != nil || r.status.State != Ready {
		r.conn = conn
	}
	m.changedLocked()
}

// changedLocked wakes the waiters of a state change. m.mu is held.
func (m *Manager) changedLocked() {
	m.version++
	close(m.changed)
	m.changed = make(chan struct{})
}

// Conn waits until the server named name is ready and returns its
// connection, or returns an error when it is unknown, failed, stopped, or
// ctx ends first. A server starting (or restarting) is waited for; one
// whose last start failed is not, though it will be retried.
func (m *Manager) Conn(ctx context.Context, name string) (Conn, error) {
	for {
		m.mu.Lock()
		r, ok := m.servers[name]
		if !ok {
			m.mu.Unlock()
			return nil, fmt.Errorf("no MCP server named %q is configured", name)
		}
		st, conn, changed := r.status, r.conn, m.changed
		m.mu.Unlock()
		switch {
		case st.State == Ready && conn != nil:
			return conn, nil
		case st.State == Failed:
			// Retried later, but a caller waiting for the retry would
			// wait its whole timeout for what is most likely the same
			// error: say it now.
			why := st.Err.Error()
			if lines := strings.Split(strings.TrimSpace(st.Stderr), "\n"); lines[len(lines)-1] != "" {
				why += "; its stderr ends: " + lines[len(lines)-1]
			}
			return nil, fmt.Errorf("MCP server %q failed to start: %s (cairn tries again in the background)", name, why)
		case st.State == Stopped:
			if st.Err != nil {
				return nil, fmt.Errorf("MCP server %q is stopped: %v", name, st.Err)
			}
			return nil, fmt.Errorf("MCP server %q is stopped", name)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			if st.Err != nil {
				return nil, fmt.Errorf("MCP server %q is not ready (%s: %v)", name, st.State, st.Err)
			}
			return nil, fmt.Errorf("MCP server %q is not ready yet (%s)", name, st.State)
		}
	}
}

// Connect adds s (see Add) and waits, within ctx, until it is ready, and
// returns its tools; or returns why it is not ready: it failed to start,
// or ctx ended first (then it goes on starting in the background, and its
// tools come when it is ready).
func (m *Manager) Connect(ctx context.Context, s Server) ([]ToolInfo, error) {
	if err := m.Add(s); err != nil {
		return nil, err
	}
	if _, err := m.Conn(ctx, s.Name); err != nil {
		return nil, err
	}
	for _, st := range m.Statuses() {
		if st.Server.Name == s.Name {
			return st.Tools, nil
		}
	}
	return nil, fmt.Errorf("MCP server %q was removed", s.Name)
}

// Close stops every server and waits for them to exit.
func (m *Manager) Close() {
	m.cancel()
	m.mu.Lock()
	m.closed = true
	var conns []Conn
	for _, r := range m.servers {
		if r.conn != nil {
			conns = append(conns, r.conn)
		}
	}
	m.mu.Unlock()
	var closing sync.WaitGroup
	for _, c := range conns {
		closing.Go(func() { _ = c.Close() })
	}
	closing.Wait()
	m.wg.Wait()
	for _, r := range m.servers {
		if r.log != nil {
			_ = r.log.Close()
		}
		m.set(r, func(st *Status) { st.State, st.Tools, st.Prompts = Stopped, nil, nil }, nil)
	}
}

// discard is the stderr of servers without a log.
var discard = discardWriter{}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
