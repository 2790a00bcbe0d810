package host

import (
	"context"
	"errors"
	"net"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
)

// Host is what one process shares between its sessions. The zero value is
// not used: make one with New.
type Host struct {
	mcp mcpPool

	mu   sync.Mutex
	live map[*Live]struct{}
	// changed is closed and replaced when a session comes or goes.
	changed chan struct{}
	server  *Server // the attach socket, once started
	closed  bool
}

// New makes the process's host.
func New() *Host {
	return &Host{live: map[*Live]struct{}{}, changed: make(chan struct{})}
}

// Live is a session running in this process, as other clients see it.
type Live struct {
	// Session is the core session.
	Session *agent.Session
	// Cwd is the directory it works in.
	Cwd string
	// Front is the front end that owns it: "tui", "rpc", "acp", ...
	Front string
	// Started is when it was registered.
	Started time.Time
	// Serve is what the attach server needs of it beyond the session
	// (cmd/cairn keeps its ACP host there).
	Serve any
}

// ID is the session's id: its current conversation's.
func (l *Live) ID() string { return l.Session.Conversation().ID }

// Register adds a live session; the returned function removes it (call it
// before the session closes). When the last live session is removed, the
// attach socket closes too (Listen opens it again for the next one). On a
// nil Host it does nothing.
func (h *Host) Register(l *Live) (unregister func()) {
	if h == nil {
		return func() {}
	}
	if l.Started.IsZero() {
		l.Started = time.Now()
	}
	h.mu.Lock()
	h.live[l] = struct{}{}
	h.changedLocked()
	h.mu.Unlock()
	return sync.OnceFunc(func() {
		h.mu.Lock()
		delete(h.live, l)
		h.changedLocked()
		var idle *Server
		if len(h.live) == 0 {
			idle, h.server = h.server, nil
		}
		h.mu.Unlock()
		if idle != nil {
			idle.Close()
		}
	})
}

func (h *Host) changedLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// Changed is closed when a session is next registered or removed.
func (h *Host) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// Sessions lists the live sessions, oldest first.
func (h *Host) Sessions() []*Live {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	out := make([]*Live, 0, len(h.live))
	for l := range h.live {
		out = append(out, l)
	}
	h.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// Find returns the live session whose id is id or, when exactly one
// session's id starts with it, that one; ok is false when none or several
// match (several: ambiguous lists them).
func (h *Host) Find(id string) (l *Live, ambiguous []string, ok bool) {
	var matches []*Live
	for _, s := range h.Sessions() {
		sid := s.ID()
		if sid == id {
			return s, nil, true
		}
		if id != "" && strings.HasPrefix(sid, id) {
			matches = append(matches, s)
		}
	}
	if len(matches) == 1 {
		return matches[0], nil, true
	}
	for _, m := range matches {
		ambiguous = append(ambiguous, m.ID())
	}
	slices.Sort(ambiguous)
	return nil, ambiguous, false
}

// Listen starts the process's attach socket in dir, once: later calls
// return the same server. serve handles each connection.
func (h *Host) Listen(dir string, serve func(ctx context.Context, c net.Conn)) (*Server, error) {
	if h == nil {
		return nil, errors.New("no host")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.server != nil {
		return h.server, nil
	}
	if h.closed {
		return nil, errors.New("the host is closed")
	}
	s, err := Listen(dir, serve)
	if err != nil {
		return nil, err
	}
	h.server = s
	return s, nil
}

// Close stops the attach socket, if one was started. Sessions are their
// owners' to close.
func (h *Host) Close() {
	if h == nil {
		return
	}
	h.mu.Lock()
	s := h.server
	h.server, h.closed = nil, true
	h.mu.Unlock()
	if s != nil {
		s.Close()
	}
}
