package approval

import (
	"path/filepath"
	"slices"
	"sync"
	"weak"
)

// Peers are the gates of one process. A rule one of them saves for the
// project ("Always allow") holds at once in every other gate of the
// process that keeps the same rules file: an editor's many threads of one
// project, each a session of its own, ask once, not once per thread. Only
// rules a gate of this process saved travel this way; a rules file changed
// by anything else is read when a session starts, after the project's
// trust is checked. The zero value is ready to use.
type Peers struct {
	mu    sync.Mutex
	gates []weak.Pointer[Gate]
}

// join adds g; gates that were collected are dropped on the way.
func (p *Peers) join(g *Gate) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gates = slices.DeleteFunc(p.gates, func(w weak.Pointer[Gate]) bool { return w.Value() == nil })
	p.gates = append(p.gates, weak.Make(g))
}

// saved gives set, just saved by from, to the other gates of its file.
func (p *Peers) saved(from *Gate, set ruleSet) {
	p.mu.Lock()
	var peers []*Gate
	for _, w := range p.gates {
		if g := w.Value(); g != nil && g != from && sameFile(g.file, from.file) {
			peers = append(peers, g)
		}
	}
	p.mu.Unlock()
	for _, g := range peers {
		g.mu.Lock()
		g.always = append(slices.Clip(g.always), set...)
		g.mu.Unlock()
	}
}

func sameFile(a, b string) bool {
	return a != "" && b != "" && filepath.Clean(a) == filepath.Clean(b)
}
