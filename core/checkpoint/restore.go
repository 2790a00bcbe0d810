package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/atomicfile"
)

// Action is what a rewind does to one path.
type Action string

// The actions of a rewind.
const (
	ActionCreate Action = "create"
	ActionModify Action = "modify"
	ActionDelete Action = "delete"
)

// Change is one path that differs between two states of the project.
type Change struct {
	Path   string `json:"path"`
	Action Action `json:"action"`
	// From and To are the entry now and in the target (nil when absent).
	From *Entry `json:"-"`
	To   *Entry `json:"-"`
}

// Plan is what restoring a checkpoint would change, computed before
// anything is changed.
type Plan struct {
	Target *Checkpoint
	// Changes lists every path the rewind would create, modify or delete.
	Changes []Change
	// Unrestorable lists the paths it cannot put back: unkept in the
	// target, or unkept now (and so not removed or overwritten).
	Unrestorable []Unkept
	// Outside lists what changed since the newest checkpoint cairn
	// recorded: changes made outside cairn's runs, which the rewind
	// replaces (they stay in its undo checkpoint).
	Outside []Change
	// current is the tree of the project when the plan was made.
	current Hash
}

// Result is what a rewind did.
type Result struct {
	Target *Checkpoint
	// Undo is the checkpoint taken just before the rewind changed
	// anything: rewinding to it undoes the rewind.
	Undo *Checkpoint
	// Restored lists the paths the rewind created, modified or deleted.
	Restored []string
	// NotRestored lists the paths left different from the target, and why.
	NotRestored []Unkept
	// Outside is as in Plan.
	Outside []Change
}

// Preview scans the project and returns what rewinding to the checkpoint
// id would change, changing nothing in the project.
func (s *Store) Preview(ctx context.Context, id string) (*Plan, error) {
	target, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	head, _ := s.Head()
	_, cur, err := s.scanLocked(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: scan the project: %w", err)
	}
	return s.planLocked(target, head, cur)
}

func (s *Store) planLocked(target, head *Checkpoint, cur Hash) (*Plan, error) {
	th, _ := ParseHash(target.Root)
	p := &Plan{Target: target, current: cur}
	var err error
	if p.Changes, err = s.diff(cur, th); err != nil {
		return nil, err
	}
	for _, c := range p.Changes {
		switch {
		case c.To != nil && c.To.Kind == KindUnkept:
			p.Unrestorable = append(p.Unrestorable, Unkept{c.Path, "not kept in the checkpoint: " + c.To.Reason})
		case c.From != nil && c.From.Kind == KindUnkept:
			p.Unrestorable = append(p.Unrestorable, Unkept{c.Path, "left as it is: its current contents could not be saved first (" + c.From.Reason + ")"})
		}
	}
	if head != nil {
		if hh, err := ParseHash(head.Root); err == nil && hh != cur {
			p.Outside, _ = s.diff(hh, cur)
		}
	}
	return p, nil
}

// Rewind puts the project's files back as they were at checkpoint id.
// First it records an undo checkpoint of the files as they are (rewinding
// to it is redo); it never removes or overwrites a file that checkpoint
// could not keep. The result names every path left different from the
// target.
func (s *Store) Rewind(ctx context.Context, id string) (*Result, error) {
	target, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	head, _ := s.Head()
	undo, err := s.recordLocked(ctx, PhaseUndo, "before rewinding to "+target.ID)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: record the undo checkpoint: %w", err)
	}
	cur, _ := ParseHash(undo.Root)
	plan, err := s.planLocked(target, head, cur)
	if err != nil {
		return nil, err
	}
	th, _ := ParseHash(target.Root)
	r := &restorer{s: s, failed: map[string]string{}}
	curTree, err := s.tree(cur)
	if err != nil {
		return nil, err
	}
	tgtTree, err := s.tree(th)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %s: %w", target.ID, err)
	}
	r.dir("", curTree, tgtTree)
	res := &Result{Target: target, Undo: undo, Outside: plan.Outside}
	after, err := s.recordLocked(context.WithoutCancel(ctx), PhaseRestored, "rewound to "+target.ID)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: record the rewound state: %w", err)
	}
	ah, _ := ParseHash(after.Root)
	left, err := s.diff(ah, th)
	if err != nil {
		return nil, err
	}
	leftSet := map[string]bool{}
	for _, c := range left {
		leftSet[c.Path] = true
		why := r.why(c.Path)
		if why == "" {
			why = "differs from the checkpoint after the rewind (changed while it ran?)"
		}
		res.NotRestored = append(res.NotRestored, Unkept{c.Path, why})
	}
	for _, c := range plan.Changes {
		if !leftSet[c.Path] {
			res.Restored = append(res.Restored, c.Path)
		}
	}
	return res, nil
}

// diff lists the paths whose entries differ between the trees a and b
// (a is "from", b is "to"), in path order; equal subtrees are skipped
// by hash.
func (s *Store) diff(a, b Hash) ([]Change, error) {
	var out []Change
	err := s.diffTrees("", a, b, &out)
	return out, err
}

func (s *Store) diffTrees(rel string, a, b Hash, out *[]Change) error {
	if a == b {
		return nil
	}
	ta, err := s.tree(a)
	if err != nil {
		return err
	}
	tb, err := s.tree(b)
	if err != nil {
		return err
	}
	return pairs(ta, tb, func(ea, eb *Entry) error { return s.diffEntry(rel, ea, eb, out) })
}

// pairs walks two trees (each in name order) side by side, calling f with
// the entries of each name: a nil one where that tree lacks it. It stops
// at f's first error.
func pairs(a, b Tree, f func(ea, eb *Entry) error) error {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var ea, eb *Entry
		switch {
		case j >= len(b) || i < len(a) && a[i].Name < b[j].Name:
			ea = &a[i]
			i++
		case i >= len(a) || b[j].Name < a[i].Name:
			eb = &b[j]
			j++
		default:
			ea, eb = &a[i], &b[j]
			i++
			j++
		}
		if err := f(ea, eb); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) diffEntry(rel string, ea, eb *Entry, out *[]Change) error {
	name := ""
	if ea != nil {
		name = ea.Name
	} else {
		name = eb.Name
	}
	p := join(rel, name)
	switch {
	case ea == nil:
		*out = append(*out, Change{Path: p, Action: ActionCreate, To: eb})
		if eb.Kind == KindDir {
			return s.listTree(p, eb.Hash, ActionCreate, out)
		}
	case eb == nil:
		*out = append(*out, Change{Path: p, Action: ActionDelete, From: ea})
		if ea.Kind == KindDir {
			return s.listTree(p, ea.Hash, ActionDelete, out)
		}
	case ea.Kind == KindDir && eb.Kind == KindDir:
		if ea.Mode != eb.Mode {
			*out = append(*out, Change{Path: p, Action: ActionModify, From: ea, To: eb})
		}
		return s.diffTrees(p, ea.Hash, eb.Hash, out)
	case !ea.sameContent(eb):
		*out = append(*out, Change{Path: p, Action: ActionModify, From: ea, To: eb})
		if ea.Kind == KindDir {
			return s.listTree(p, ea.Hash, ActionDelete, out)
		}
		if eb.Kind == KindDir {
			return s.listTree(p, eb.Hash, ActionCreate, out)
		}
	}
	return nil
}

// listTree adds every entry under the tree h as created or deleted.
func (s *Store) listTree(rel string, h Hash, a Action, out *[]Change) error {
	t, err := s.tree(h)
	if err != nil {
		return err
	}
	for i := range t {
		e := &t[i]
		p := join(rel, e.Name)
		c := Change{Path: p, Action: a}
		if a == ActionCreate {
			c.To = e
		} else {
			c.From = e
		}
		*out = append(*out, c)
		if e.Kind == KindDir {
			if err := s.listTree(p, e.Hash, a, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// restorer applies a target tree over the current one, noting why each
// path it could not put back failed.
type restorer struct {
	s      *Store
	failed map[string]string
}

func (r *restorer) fail(rel, why string) {
	if _, ok := r.failed[rel]; !ok {
		r.failed[rel] = why
	}
}

// why returns the reason rel, or the nearest directory above it, was not
// put back; "" if none was noted.
func (r *restorer) why(rel string) string {
	for p := rel; p != "."; p = path.Dir(p) {
		if why, ok := r.failed[p]; ok {
			if p != rel {
				return "inside " + p + ", which was " + why
			}
			return why
		}
	}
	return ""
}

func (r *restorer) abs(rel string) string {
	return filepath.Join(r.s.root, filepath.FromSlash(rel))
}

// dir makes the directory rel, whose entries are cur now, hold tgt.
func (r *restorer) dir(rel string, cur, tgt Tree) {
	_ = pairs(cur, tgt, func(c, t *Entry) error {
		r.entry(rel, c, t)
		return nil
	})
}

func (r *restorer) entry(rel string, c, t *Entry) {
	var p string
	if c != nil {
		p = join(rel, c.Name)
	} else {
		p = join(rel, t.Name)
	}
	switch {
	case t == nil:
		r.remove(p, c)
	case c == nil:
		r.create(p, t)
	case c.sameContent(t):
	case t.Kind == KindUnkept:
		r.fail(p, "not kept in the checkpoint: "+t.Reason)
	case c.Kind == KindUnkept:
		r.fail(p, "left as it is: its current contents could not be saved first ("+c.Reason+")")
	case c.Kind == KindDir && t.Kind == KindDir:
		r.intoDir(p, c, t)
	case c.Kind == KindDir:
		if r.remove(p, c) {
			r.create(p, t)
		}
	case t.Kind == KindFile && c.Kind == KindFile && c.Hash == t.Hash:
		if err := os.Chmod(r.abs(p), t.Mode); err != nil {
			r.fail(p, "could not set its mode: "+errText(err))
		}
	case t.Kind == KindDir:
		if err := os.Remove(r.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.fail(p, "could not remove what is there now: "+errText(err))
			return
		}
		r.create(p, t)
	default:
		// File or link over file or link: replaced by a rename.
		r.create(p, t)
	}
}

// intoDir restores the directory p (a directory now and in the target).
func (r *restorer) intoDir(p string, c, t *Entry) {
	cur, err := r.s.tree(c.Hash)
	if err != nil {
		r.fail(p, "the current state could not be read back: "+err.Error())
		return
	}
	tgt, err := r.s.tree(t.Hash)
	if err != nil {
		r.fail(p, "the checkpoint is damaged: "+err.Error())
		return
	}
	abs := r.abs(p)
	_ = os.Chmod(abs, c.Mode.Perm()|0o700) // to change what is inside
	r.dir(p, cur, tgt)
	if err := os.Chmod(abs, t.Mode); err != nil {
		r.fail(p, "could not set its mode: "+errText(err))
	}
}

// create makes p hold t, replacing a file or link there by a rename.
func (r *restorer) create(p string, t *Entry) {
	abs := r.abs(p)
	switch t.Kind {
	case KindUnkept:
		r.fail(p, "not kept in the checkpoint: "+t.Reason)
	case KindFile:
		data, err := r.s.readBlob(t.Hash)
		if err != nil {
			r.fail(p, err.Error())
			return
		}
		if err := atomicfile.WriteUnsynced(abs, data, t.Mode.Perm()); err != nil {
			r.fail(p, "could not be written: "+errText(err))
			return
		}
		if err := os.Chmod(abs, t.Mode); err != nil {
			r.fail(p, "could not set its mode: "+errText(err))
		}
		mt := time.Unix(0, t.MTime)
		_ = os.Chtimes(abs, mt, mt)
	case KindLink:
		tmp := filepath.Join(filepath.Dir(abs), ".cairn-rewind-"+t.Name)
		_ = os.Remove(tmp)
		if err := os.Symlink(t.Link, tmp); err != nil {
			r.fail(p, "could not create the link: "+errText(err))
			return
		}
		if err := os.Rename(tmp, abs); err != nil {
			_ = os.Remove(tmp)
			r.fail(p, "could not create the link: "+errText(err))
		}
	case KindDir:
		if err := os.Mkdir(abs, t.Mode.Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			r.fail(p, "could not create the directory: "+errText(err))
			return
		}
		tgt, err := r.s.tree(t.Hash)
		if err != nil {
			r.fail(p, "the checkpoint is damaged: "+err.Error())
			return
		}
		r.dir(p, nil, tgt)
		if err := os.Chmod(abs, t.Mode); err != nil {
			r.fail(p, "could not set its mode: "+errText(err))
		}
	}
}

// remove deletes p (entry c now), refusing what the undo checkpoint could
// not keep; it reports whether p is gone.
func (r *restorer) remove(p string, c *Entry) bool {
	abs := r.abs(p)
	switch c.Kind {
	case KindUnkept:
		r.fail(p, "left in place: it could not be saved first, so removing it would lose it ("+c.Reason+")")
		return false
	case KindDir:
		cur, err := r.s.tree(c.Hash)
		if err != nil {
			r.fail(p, "left in place: "+err.Error())
			return false
		}
		_ = os.Chmod(abs, c.Mode.Perm()|0o700)
		ok := true
		for i := range cur {
			if !r.remove(join(p, cur[i].Name), &cur[i]) {
				ok = false
			}
		}
		if !ok {
			r.fail(p, "left in place: it holds entries that could not be removed")
			return false
		}
		if err := os.Remove(abs); err != nil {
			// It holds what checkpoints leave out (a .git), or new files.
			r.fail(p, "left in place: "+errText(err))
			return false
		}
	default:
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.fail(p, "could not be removed: "+errText(err))
			return false
		}
	}
	return true
}

// Changes lists what differs between the checkpoints from and to.
func (s *Store) Changes(from, to string) ([]Change, error) {
	a, err := s.Load(from)
	if err != nil {
		return nil, err
	}
	b, err := s.Load(to)
	if err != nil {
		return nil, err
	}
	ha, _ := ParseHash(a.Root)
	hb, _ := ParseHash(b.Root)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.diff(ha, hb)
}

// FileAt returns the contents the file rel (slash-separated, relative to
// the project) had at the checkpoint id, for showing diffs.
func (s *Store) FileAt(id, rel string) ([]byte, error) {
	cp, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	h, _ := ParseHash(cp.Root)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.tree(h)
	if err != nil {
		return nil, err
	}
	parts := splitPath(rel)
	for i, name := range parts {
		e := t.find(name)
		if e == nil {
			return nil, fmt.Errorf("%s is not in checkpoint %s", rel, id)
		}
		if i == len(parts)-1 {
			if e.Kind != KindFile {
				return nil, fmt.Errorf("%s is a %v in checkpoint %s", rel, e.Kind, id)
			}
			return s.readBlob(e.Hash)
		}
		if e.Kind != KindDir {
			return nil, fmt.Errorf("%s is not in checkpoint %s", rel, id)
		}
		if t, err = s.tree(e.Hash); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%q is not a file path", rel)
}

func splitPath(rel string) []string {
	var out []string
	for _, p := range strings.Split(rel, "/") {
		if p != "" && p != "." {
			out = append(out, p)
		}
	}
	return out
}
