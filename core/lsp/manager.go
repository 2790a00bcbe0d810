package lsp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cairn-dev/cairn/core/toolpath"
)

// MaxStarts is how many times a server is started for one root before it
// is given up on for the session: the first start and two restarts.
const MaxStarts = 3

// maxFileBytes is the largest file sent to a server.
const maxFileBytes = 4 << 20

// Manager runs the language servers of one project: a server for a
// file's language is started the first time such a file is edited or
// asked about, one per root, and stopped by Close. A server that is
// missing, slow, hung or crashing never holds a caller longer than the
// configured wait; one that stopped is restarted, at most MaxStarts
// starts in all. Its methods are safe for concurrent use. Building one
// does nothing else: no server starts before it is needed.
type Manager struct {
	cfg Config

	mu     sync.Mutex
	slots  map[string]*slot
	closed bool
}

// slot is one server for one root: its current client and its history.
type slot struct {
	server Server
	root   string
	c      *client
	starts int
	// lastErr is why the last client stopped; gaveUp says MaxStarts were
	// used up, told is set once that was reported.
	lastErr error
	gaveUp  bool
	told    bool
	// slow is set when the server was not ready within the wait; until
	// it is ready, a baseline is not waited for.
	slow bool
}

// New returns a Manager for cfg; it starts nothing.
func New(cfg Config) *Manager {
	if cfg.Servers == nil {
		cfg.Servers = DefaultServers()
	}
	if cfg.Wait <= 0 {
		cfg.Wait = DefaultWait
	}
	if cfg.LookPath == nil {
		cfg.LookPath = exec.LookPath
	}
	if cfg.Dir != "" {
		// As spelled: toolpath gives the project's files under the
		// project's own spelling, links inside followed.
		cfg.Dir = filepath.Clean(cfg.Dir)
	}
	return &Manager{cfg: cfg, slots: map[string]*slot{}}
}

// Dir is the project: where file names in reports are relative to.
func (m *Manager) Dir() string { return m.cfg.Dir }

// Wait is how long each wait for a server lasts.
func (m *Manager) Wait() time.Duration { return m.cfg.Wait }

// Close stops every server. Later calls find none and start none.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	slots := m.slots
	m.slots = map[string]*slot{}
	m.mu.Unlock()
	for _, s := range slots {
		if s.c != nil {
			s.c.stop()
		}
	}
}

// serverFor returns the first server that serves path and whose program
// is on PATH, and that program's path.
func (m *Manager) serverFor(path string) (Server, string, bool) {
	for _, s := range m.cfg.Servers {
		if s.Disabled || len(s.Command) == 0 || !s.serves(path) {
			continue
		}
		if prog, err := m.cfg.LookPath(s.Command[0]); err == nil {
			return s, prog, true
		}
	}
	return Server{}, "", false
}

// Servers says which server would serve path: its name, or why none.
func (m *Manager) Servers(path string) (string, error) {
	if s, _, ok := m.serverFor(path); ok {
		return s.Name, nil
	}
	for _, s := range m.cfg.Servers {
		if !s.Disabled && s.serves(path) && len(s.Command) > 0 {
			return "", fmt.Errorf("no language server for %s files: %s is not on PATH (install it, or set lsp.servers.%s.command in settings)",
				filepath.Ext(path), s.Command[0], s.Name)
		}
	}
	return "", fmt.Errorf("no language server is configured for %q files (see lsp.servers in settings)", filepath.Ext(path))
}

// clientFor returns the running client for path, starting one if needed.
// It returns nil, with no error, for a file no server serves or outside
// the project; an error says the server could not be had, once per
// failure, so callers can tell the person without repeating it.
func (m *Manager) clientFor(path string) (*client, *slot, error) {
	if m.cfg.Dir == "" || !toolpath.Within(path, m.cfg.Dir) {
		return nil, nil, nil
	}
	s, prog, ok := m.serverFor(path)
	if !ok {
		return nil, nil, nil
	}
	root := s.rootFor(path, m.cfg.Dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, nil, nil
	}
	key := s.Name + "\x00" + root
	sl := m.slots[key]
	if sl == nil {
		sl = &slot{server: s, root: root}
		m.slots[key] = sl
	}
	if sl.c != nil {
		dead, err := sl.c.dead()
		if !dead {
			return sl.c, sl, nil
		}
		sl.c, sl.lastErr = nil, err
	}
	if sl.starts >= MaxStarts {
		sl.gaveUp = true
		if sl.told {
			return nil, sl, nil
		}
		sl.told = true
		return nil, sl, fmt.Errorf("language server %s stopped %d times, so diagnostics for %s files are off for this session: %v",
			s.Command[0], sl.starts, s.Name, sl.lastErr)
	}
	sl.starts++
	c, err := start(s, prog, root, m.cfg.Env)
	if err != nil {
		sl.lastErr = err
		return nil, sl, err
	}
	sl.c = c
	return c, sl, nil
}

// Baseline is a file's diagnostics before an edit, to tell the errors
// the edit introduced from those it found.
type Baseline struct {
	known bool
	list  []protocol.Diagnostic
}

// Before returns path's diagnostics as they are now, telling the server
// of the file (as it is on disk) if needed and waiting, at most the
// configured wait, for its answer. A server that was slow once is not
// waited for again here. It never fails: an unknown baseline makes After
// report every error.
func (m *Manager) Before(ctx context.Context, path string) Baseline {
	c, sl, _ := m.clientFor(path)
	if c == nil {
		return Baseline{}
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Wait)
	defer cancel()
	m.mu.Lock()
	if sl.slow && c.isReady() {
		// It got there in the end: baselines are worth waiting for again.
		sl.slow = false
	}
	slow := sl.slow
	m.mu.Unlock()
	if slow {
		if list, ok := c.known(path); ok {
			return Baseline{known: true, list: list}
		}
		return Baseline{}
	}
	if !c.waitReady(ctx) {
		m.mu.Lock()
		sl.slow = true
		m.mu.Unlock()
		return Baseline{}
	}
	text, err := readFile(path)
	if os.IsNotExist(err) {
		// A new file has no errors yet.
		return Baseline{known: true}
	}
	if err != nil {
		return Baseline{}
	}
	seq, version, changed, err := c.sync(ctx, path, text)
	if err != nil {
		return Baseline{}
	}
	if !changed {
		list, ok := c.known(path)
		return Baseline{known: ok, list: list}
	}
	list, ok := c.diagnostics(ctx, path, seq, version)
	return Baseline{known: ok, list: list}
}

// Report is what a server said of a file after an edit.
type Report struct {
	// Server names the server ("go").
	Server string
	// Path is the file.
	Path string
	// New are the errors the edit introduced (all errors when the
	// diagnostics before it were not known).
	New []protocol.Diagnostic
	// Errors counts the file's errors now.
	Errors int
	// Answered says the server published diagnostics within the wait.
	Answered bool
	// Problem says why there is no answer from a server that should have
	// given one (it could not start, or stopped too often); "" otherwise.
	Problem string
}

// After tells the server of path's new text and waits, at most the
// configured wait, for its diagnostics; it returns the errors the edit
// introduced compared with before. It returns a zero Report for a file no
// server serves.
func (m *Manager) After(ctx context.Context, path string, before Baseline) Report {
	c, sl, err := m.clientFor(path)
	r := Report{Path: path}
	if sl != nil {
		r.Server = sl.server.Name
	}
	if err != nil {
		r.Problem = err.Error()
	}
	if c == nil {
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Wait)
	defer cancel()
	if !c.waitReady(ctx) {
		if dead, err := c.dead(); dead {
			r.Problem = err.Error()
		}
		return r
	}
	text, err := readFile(path)
	if err != nil {
		return r
	}
	seq, version, changed, err := c.sync(ctx, path, text)
	if err != nil {
		return r
	}
	var list []protocol.Diagnostic
	if changed {
		list, r.Answered = c.diagnostics(ctx, path, seq, version)
	} else {
		list, r.Answered = c.known(path)
	}
	if !r.Answered {
		return r
	}
	r.New = introduced(before, list)
	r.Errors = countErrors(list)
	return r
}

// FileDiagnostics are one file's diagnostics.
type FileDiagnostics struct {
	// Path is the file.
	Path string
	// List are its diagnostics as the server published them.
	List []protocol.Diagnostic
}

// File returns path's diagnostics from its server, telling it of the file
// as it is on disk and waiting, at most the configured wait, for them.
func (m *Manager) File(ctx context.Context, path string) ([]protocol.Diagnostic, error) {
	if _, err := m.Servers(path); err != nil {
		return nil, err
	}
	if !toolpath.Within(path, m.cfg.Dir) {
		return nil, fmt.Errorf("%s is outside the project; language servers see only the project's files", path)
	}
	c, sl, err := m.clientFor(path)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("language server %s is off for this session: %v", sl.server.Command[0], sl.lastErr)
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Wait)
	defer cancel()
	if !c.waitReady(ctx) {
		if dead, err := c.dead(); dead {
			return nil, err
		}
		return nil, fmt.Errorf("language server %s is still starting after %s; try again shortly", sl.server.Command[0], m.cfg.Wait)
	}
	text, err := readFile(path)
	if err != nil {
		return nil, err
	}
	seq, version, changed, err := c.sync(ctx, path, text)
	if err != nil {
		return nil, fmt.Errorf("language server %s: %w", sl.server.Command[0], err)
	}
	if !changed {
		list, _ := c.known(path)
		return list, nil
	}
	list, ok := c.diagnostics(ctx, path, seq, version)
	if !ok {
		return nil, fmt.Errorf("language server %s gave no diagnostics within %s; try again", sl.server.Command[0], m.cfg.Wait)
	}
	return list, nil
}

// Project returns every file's diagnostics the running servers have
// published, sorted by path, and the names of the servers running.
func (m *Manager) Project() ([]FileDiagnostics, []string) {
	m.mu.Lock()
	var clients []*client
	var names []string
	for _, s := range m.slots {
		if s.c != nil {
			if dead, _ := s.c.dead(); !dead {
				clients = append(clients, s.c)
				names = append(names, s.server.Command[0])
			}
		}
	}
	m.mu.Unlock()
	byPath := map[string][]protocol.Diagnostic{}
	for _, c := range clients {
		for p, l := range c.all() {
			byPath[p] = append(byPath[p], l...)
		}
	}
	out := make([]FileDiagnostics, 0, len(byPath))
	for p, l := range byPath {
		out = append(out, FileDiagnostics{Path: p, List: l})
	}
	sortFiles(out)
	return out, names
}

// readFile reads a file to send to a server, refusing one too large.
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", path, maxFileBytes)
	}
	return os.ReadFile(path)
}
