package pi

import (
	"fmt"
	"sort"
	"time"

	"github.com/cairn-dev/cairn/core/session"
)

// The session tree over rpc: get_entries and get_tree read every entry of
// the session file, clone copies the current branch into a new one. All
// three need a session file; with --no-session they say so.

// entriesData is get_entries' answer. Leaf is null before the first entry.
type entriesData struct {
	Entries []session.Entry `json:"entries"`
	LeafID  *string         `json:"leafId"`
}

// getEntries answers get_entries: the entries in append order, or with
// "since" only those after that entry, so a host can follow the file with
// the last id it saw as a cursor.
func (s *server) getEntries(c *command) (any, error) {
	since, hasSince, err := c.optStr("since")
	if err != nil {
		return nil, err
	}
	entries, leaf, err := s.sess.Entries()
	if err != nil {
		return nil, err
	}
	if hasSince {
		i := indexOfEntry(entries, since)
		if i < 0 {
			return nil, fmt.Errorf("no entry %q in this session: send get_entries without since to read them all", since)
		}
		entries = entries[i+1:]
	}
	if entries == nil {
		entries = []session.Entry{}
	}
	return entriesData{Entries: entries, LeafID: leafID(leaf)}, nil
}

func indexOfEntry(entries []session.Entry, id string) int {
	for i, e := range entries {
		if e.ID == id {
			return i
		}
	}
	return -1
}

func leafID(leaf string) *string {
	if leaf == "" {
		return nil
	}
	return &leaf
}

// treeNode is one node of get_tree: an entry, its children oldest first,
// and the label set on it, if any.
type treeNode struct {
	Entry          session.Entry `json:"entry"`
	Children       []*treeNode   `json:"children"`
	Label          string        `json:"label,omitempty"`
	LabelTimestamp string        `json:"labelTimestamp,omitempty"`
}

// getTree answers get_tree: the entries as a forest. A root is an entry
// without a parent, or whose parent is missing from the file; entries
// caught in a parent loop are listed once, under the first of them.
func (s *server) getTree(*command) (any, error) {
	entries, leaf, err := s.sess.Entries()
	if err != nil {
		return nil, err
	}
	return struct {
		Tree   []*treeNode `json:"tree"`
		LeafID *string     `json:"leafId"`
	}{buildTree(entries), leafID(leaf)}, nil
}

// buildTree arranges entries (in file order) as a forest.
func buildTree(entries []session.Entry) []*treeNode {
	nodes := make(map[string]*treeNode, len(entries))
	children := make(map[string][]string, len(entries))
	var order []string
	for _, e := range entries {
		if _, dup := nodes[e.ID]; dup {
			continue
		}
		nodes[e.ID] = &treeNode{Entry: e, Children: []*treeNode{}}
		order = append(order, e.ID)
	}
	for _, e := range entries {
		l, ok := e.Payload.(*session.LabelEntry)
		if !ok || nodes[l.TargetID] == nil {
			continue
		}
		// The latest label entry wins; an empty one removes the label.
		labelled := nodes[l.TargetID]
		labelled.Label, labelled.LabelTimestamp = l.Label, e.Timestamp
		if l.Label == "" {
			labelled.LabelTimestamp = ""
		}
	}
	var roots []string
	for _, id := range order {
		e := nodes[id].Entry
		if e.ParentID == nil || *e.ParentID == id || nodes[*e.ParentID] == nil {
			roots = append(roots, id)
			continue
		}
		children[*e.ParentID] = append(children[*e.ParentID], id)
	}
	placed := make(map[string]bool, len(order))
	var place func(id string) *treeNode
	place = func(id string) *treeNode {
		placed[id] = true
		n := nodes[id]
		kids := children[id]
		sortByTime(kids, nodes)
		for _, k := range kids {
			if !placed[k] {
				n.Children = append(n.Children, place(k))
			}
		}
		return n
	}
	var out []*treeNode
	for _, id := range roots {
		out = append(out, place(id))
	}
	for _, id := range order {
		if !placed[id] {
			out = append(out, place(id))
		}
	}
	if out == nil {
		out = []*treeNode{}
	}
	return out
}

// sortByTime orders sibling ids by their entries' timestamps, keeping
// file order among equal or unreadable ones.
func sortByTime(ids []string, nodes map[string]*treeNode) {
	at := func(id string) time.Time {
		t, _ := time.Parse(time.RFC3339Nano, nodes[id].Entry.Timestamp)
		return t
	}
	sort.SliceStable(ids, func(i, j int) bool { return at(ids[i]).Before(at(ids[j])) })
}

// clone answers clone: a new session file holding the current branch, at
// its tip, becomes the current session.
func (s *server) clone(*command) (any, error) {
	if err := s.stop(); err != nil {
		return nil, err
	}
	return switched(s.sess.Clone())
}
