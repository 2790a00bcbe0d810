package toolset

import (
	"context"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn/core"
)

// Switch is a Set whose tools a person or an extension turns on and off
// by name while the session runs, as pi's setActiveTools does. Until
// SetActive is called every tool of the parent is active; after it, the
// tools it named are, and a tool the parent gains later (an MCP server
// that connects, an extension that registers one) is active too, as pi
// activates tools new to its registry. Its methods are safe for
// concurrent use.
type Switch struct {
	parent Set

	mu sync.Mutex
	// chosen is false until SetActive; then active holds the names it
	// kept and known every name the parent had then.
	chosen bool
	active map[string]bool
	known  map[string]bool
}

// NewSwitch returns a switch over parent with every tool active.
func NewSwitch(parent Set) *Switch { return &Switch{parent: parent} }

// on reports whether the tool named name is active.
func (s *Switch) on(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.chosen || s.active[name] || !s.known[name]
}

// All returns every tool of the parent, active or not: pi's getAllTools.
func (s *Switch) All() []core.Tool { return s.parent.Tools() }

// Tools returns the active tools, for the next request.
func (s *Switch) Tools() []core.Tool {
	var out []core.Tool
	for _, t := range s.parent.Tools() {
		if s.on(t.Spec().Name) {
			out = append(out, t)
		}
	}
	return out
}

// Active returns the names of the active tools, in Tools' order.
func (s *Switch) Active() []string {
	var out []string
	for _, t := range s.Tools() {
		out = append(out, t.Spec().Name)
	}
	return out
}

// Find returns the active tool of that name: a switched-off tool is not
// callable, as in pi, where it leaves the agent's tools.
func (s *Switch) Find(name string) core.Tool {
	if !s.on(name) {
		return nil
	}
	return s.parent.Find(name)
}

// Wait is the parent's wait.
func (s *Switch) Wait(ctx context.Context, note func(Note)) { s.parent.Wait(ctx, note) }

// SetActive makes exactly the named tools active from the next request
// and returns, in order and once each, the names the parent has no tool
// of: those are ignored (pi ignores them too; the caller says so).
func (s *Switch) SetActive(names []string) (unknown []string) {
	known := map[string]bool{}
	for _, t := range s.parent.Tools() {
		known[t.Spec().Name] = true
	}
	active := map[string]bool{}
	for _, n := range names {
		switch {
		case known[n]:
			active[n] = true
		case !slices.Contains(unknown, n):
			unknown = append(unknown, n)
		}
	}
	s.mu.Lock()
	s.chosen, s.active, s.known = true, active, known
	s.mu.Unlock()
	return unknown
}
