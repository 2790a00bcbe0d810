package mcp

// What others read of a Manager: each server's state and status, the
// change version, the servers still starting, and waiting for them.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// State is where a server is in its life.
type State int

// The states of a server.
const (
	// Starting: being started or restarted.
	Starting State = iota
	// Ready: connected, its tools listed.
	Ready
	// Failed: the last start failed; another follows after a delay
	// unless the attempts are used up (then Stopped).
	Failed
	// Stopped: given up on, disabled, or the manager closed.
	Stopped
)

// String names the state for people.
func (s State) String() string {
	switch s {
	case Starting:
		return "starting"
	case Ready:
		return "ready"
	case Failed:
		return "failed"
	}
	return "stopped"
}

// MaxStartFailures is how many starts in a row may fail before a server is
// given up on.
const MaxStartFailures = 5

// Status is a snapshot of one server.
type Status struct {
	Server Server
	State  State
	// Tools are the server's tools when Ready.
	Tools []ToolInfo
	// LastTools are the tools the server listed the last time it ran with
	// the same configuration (Options.Cache), for listings to show while
	// it starts. They are never offered to a model: only Tools are.
	LastTools []ToolInfo
	// Prompts are the server's prompts when Ready (none when it offers
	// none or listing them failed).
	Prompts []PromptInfo
	// Err is why the last start failed or the connection ended.
	Err error
	// Stderr is the last lines of a command's stderr when it failed.
	Stderr string
	// Log is the file holding the server's stderr, if any.
	Log string
}

// FailureText says why a server is not running, with its command and the
// last lines of its stderr.
func FailureText(st Status) string {
	s := st.Server
	var b strings.Builder
	fmt.Fprintf(&b, "MCP server %q (%s, from %s) failed to start: %v", s.Name, s.CommandLine(), s.Source, st.Err)
	if st.Stderr != "" {
		b.WriteString("\nlast lines of its stderr:\n" + indent(st.Stderr))
	}
	if st.Log != "" {
		b.WriteString("\nfull log: " + st.Log)
	}
	return b.String()
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// Version counts the changes of the servers' states, tools and prompts: a
// caller that shows them compares it with the version it showed.
func (m *Manager) Version() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version
}

// wait waits d, until r is asked to reconnect (kicked), or until the
// manager closes (alive is false).
func (m *Manager) wait(r *running, d time.Duration) (alive, kicked bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true, false
	case <-r.kick:
		return m.ctx.Err() == nil, true
	case <-m.ctx.Done():
		return false, false
	}
}

// Statuses returns every configured server's status, in configuration
// order.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, 0, len(m.order))
	for _, name := range m.order {
		st := m.servers[name].status
		st.Tools = slices.Clone(st.Tools)
		st.LastTools = slices.Clone(st.LastTools)
		st.Prompts = slices.Clone(st.Prompts)
		out = append(out, st)
	}
	return out
}

// Starting names the enabled servers whose first start has not ended yet
// (neither ready nor failed), in configuration order.
func (m *Manager) Starting() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, name := range m.order {
		if !m.servers[name].settled {
			out = append(out, name)
		}
	}
	return out
}

// Changed returns a channel closed at the next change of any server's
// state, tools or prompts.
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// WaitSettled waits until every server has been started at least once
// (ready, failed or stopped), or ctx ends.
func (m *Manager) WaitSettled(ctx context.Context) {
	for {
		m.mu.Lock()
		changed := m.changed
		settled := true
		for _, r := range m.servers {
			if r.status.State == Starting {
				settled = false
			}
		}
		m.mu.Unlock()
		if settled {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
