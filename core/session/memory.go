package session

import "time"

// NewMemory starts a session for cwd that is kept in memory and never
// written (pi's --no-session): it has every method of a File, its tree,
// entries, forks and clones included, but no path, and Persisted is always
// false. now is its clock; nil means time.Now.
func NewMemory(cwd string, now func() time.Time) *File {
	if now == nil {
		now = time.Now
	}
	t := now()
	f := newFile("", Header{Version: Version, ID: newUUID(t), Timestamp: isoTime(t), Cwd: cwd}, now)
	f.memory = true
	return f
}

// forkInMemory is Fork of a session kept in memory: a new one, also in
// memory, holding the entries idx (a path from the root) and then extra.
// The entries are shared, not copied: entries never change once appended.
// f.mu is held.
func (f *File) forkInMemory(h Header, idx []int, extra []Entry) *File {
	g := newFile("", h, f.now)
	g.memory = true
	for _, k := range idx {
		g.adopt(f.nodes[k].entry)
	}
	for i := range extra {
		g.adopt(&extra[i])
	}
	return g
}

// adopt adds an entry that already has its id and parent, as the last
// entry (the leaf).
func (g *File) adopt(e *Entry) {
	n := node{id: e.ID, hasParent: e.ParentID != nil, parent: -1, typ: e.Type, off: -1, entry: e}
	if e.ParentID != nil {
		n.parentID = *e.ParentID
		if p, ok := g.byID[n.parentID]; ok {
			n.parent = p
		}
	}
	g.add(n)
	if isAssistant(e) {
		g.hasAssistant = true
	}
	g.noteMeta(e)
}
