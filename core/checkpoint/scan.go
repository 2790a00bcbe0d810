package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// scan is one walk of the project: it builds the trees of what is on disk
// now, reusing the hashes of the previous scan for files whose stat did
// not change.
type scan struct {
	s      *Store
	ctx    context.Context
	total  int64 // bytes of kept file content so far
	added  int64 // bytes of blobs written
	unkept []Unkept
	nUnk   int
	// storeInside says the store lies inside the project (and must be
	// left out of it).
	storeInside bool
	// lists lists the directories, ahead of the walk.
	lists *prefetcher
}

// Record scans the project and saves a checkpoint of what is there now.
func (s *Store) Record(ctx context.Context, phase Phase, label string) (*Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordLocked(ctx, phase, label)
}

func (s *Store) recordLocked(ctx context.Context, phase Phase, label string) (*Checkpoint, error) {
	sc, root, err := s.scanLocked(ctx)
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	cp := &Checkpoint{ID: newID(now), Time: now, Phase: phase, Root: root.String(), Label: label, Added: sc.added, Unkept: sc.unkept, UnkeptCount: sc.nUnk}
	if err := s.saveRecord(cp); err != nil {
		return nil, err
	}
	return cp, nil
}

// scanLocked walks the project and returns its root tree's hash.
func (s *Store) scanLocked(ctx context.Context) (*scan, Hash, error) {
	sc := &scan{s: s, ctx: ctx, storeInside: strings.HasPrefix(s.dir, s.root+string(filepath.Separator))}
	var prev *Entry
	if s.hasLast {
		prev = &Entry{Kind: KindDir, Hash: s.last}
	}
	sc.lists = newPrefetcher(s.root, func(dirAbs string) func(string) bool {
		return func(name string) bool { return sc.skipped(name, dirAbs) }
	})
	defer sc.lists.stop()
	s.beginPack()
	h, err := sc.dir("", prev)
	if err != nil {
		_ = s.endPack(false)
		return nil, h, err
	}
	if err := s.endPack(true); err != nil {
		return nil, h, err
	}
	s.last, s.hasLast = h, true
	return sc, h, nil
}

// skipped reports whether the entry name of the directory dirAbs is left
// out of checkpoints: .git directories (and worktrees' .git files), and
// the store itself when it lies inside the project. It is called from
// several goroutines.
func (sc *scan) skipped(name, dirAbs string) bool {
	if name == ".git" {
		return true
	}
	// Only a store inside the project costs a join per entry.
	return sc.storeInside && filepath.Join(dirAbs, name) == sc.s.dir
}

// dir builds the tree of the directory rel, given its entry in the
// previous scan (nil if none), and returns its hash.
func (sc *scan) dir(rel string, old *Entry) (Hash, error) {
	if err := sc.ctx.Err(); err != nil {
		return Hash{}, err
	}
	var prev Tree
	if old != nil && old.Kind == KindDir {
		// A damaged or missing previous tree only costs a full read.
		prev, _ = sc.s.tree(old.Hash)
	}
	stats, err := sc.lists.get(rel)
	if err != nil {
		return Hash{}, err
	}
	// The tree is built in place over the listing: entry i is written
	// after stats[i] is read, never before.
	t := stats[:0]
	j := 0 // prev[j] is the first previous entry not before e
	for _, e := range stats {
		if e.Kind == KindUnkept {
			t = append(t, sc.unkeep(join(rel, e.Name), Entry{Name: e.Name}, e.Reason))
			continue
		}
		// Both are in name order: one pass finds each previous entry.
		for j < len(prev) && prev[j].Name < e.Name {
			j++
		}
		var old *Entry
		if j < len(prev) && prev[j].Name == e.Name {
			old = &prev[j]
		}
		if e.Mode.IsRegular() && old != nil && old.Kind == KindFile && old.sameStat(&e) && sc.fits(e.Size) {
			// The common case, unchanged: no path is built, nothing read.
			sc.total += e.Size
			e.Kind, e.Hash = KindFile, old.Hash
			t = append(t, e)
			continue
		}
		t = append(t, sc.entry(join(rel, e.Name), e, old))
	}
	if err := sc.ctx.Err(); err != nil {
		return Hash{}, err
	}
	if prev != nil && slices.Equal(t, prev) {
		recycle(t)
		return old.Hash, nil
	}
	// The store keeps the tree: a copy of its own size, not the listing.
	kept := slices.Clone(t)
	recycle(t)
	return sc.s.putTree(kept)
}

// entry completes e (stat fields filled) for the path rel.
func (sc *scan) entry(rel string, e Entry, old *Entry) Entry {
	switch mode := e.Mode; {
	case mode.IsRegular():
		return sc.file(rel, e, old)
	case mode.IsDir():
		h, err := sc.dir(rel, old)
		if err != nil {
			if sc.ctx.Err() != nil {
				// Propagated by the caller's next ctx check.
				return sc.unkeep(rel, e, "scan cancelled")
			}
			return sc.unkeep(rel, e, "directory could not be read: "+errText(err))
		}
		e.Kind, e.Hash = KindDir, h
		// A directory's own size and times change with its entries; the
		// tree already says what changed.
		e.Size, e.MTime, e.Inode = 0, 0, 0
		return e
	case mode.Type() == fs.ModeSymlink:
		target, err := os.Readlink(filepath.Join(sc.s.root, filepath.FromSlash(rel)))
		if err != nil || target == "" || len(target) > maxLinkLen || strings.ContainsRune(target, 0) {
			return sc.unkeep(rel, e, "link could not be read")
		}
		e.Kind, e.Link = KindLink, target
		e.MTime, e.Inode = 0, 0
		return e
	default:
		return sc.unkeep(rel, e, "not a regular file, directory or link ("+mode.Type().String()+")")
	}
}

// fits reports whether a file of size bytes is within both limits.
func (sc *scan) fits(size int64) bool {
	l := sc.s.opts.Limits
	return size <= l.MaxFileBytes && sc.total+size <= l.MaxTotalBytes
}

// file keeps a regular file: the previous hash when its stat is unchanged,
// else its contents, read and stored.
func (sc *scan) file(rel string, e Entry, old *Entry) Entry {
	limits := sc.s.opts.Limits
	if e.Size > limits.MaxFileBytes {
		return sc.unkeep(rel, e, fmt.Sprintf("larger than the per-file limit (%d bytes)", limits.MaxFileBytes))
	}
	if sc.total+e.Size > limits.MaxTotalBytes {
		return sc.unkeep(rel, e, fmt.Sprintf("over the checkpoint's total size limit (%d bytes)", limits.MaxTotalBytes))
	}
	if old != nil && old.Kind == KindFile && old.sameStat(&e) {
		sc.total += e.Size
		e.Kind, e.Hash = KindFile, old.Hash
		return e
	}
	data, err := readLimited(filepath.Join(sc.s.root, filepath.FromSlash(rel)), limits.MaxFileBytes)
	if err != nil {
		return sc.unkeep(rel, e, "could not be read: "+errText(err))
	}
	// What was read is what is kept; a file that changed while it was read
	// is kept as read, and its size says so.
	e.Size = int64(len(data))
	h := hashOf(data)
	wrote, err := sc.s.writeObject(objBlob, h, data)
	if err != nil {
		return sc.unkeep(rel, e, "could not be stored: "+errText(err))
	}
	if wrote {
		sc.added += int64(len(data))
	}
	sc.total += e.Size
	e.Kind, e.Hash = KindFile, h
	return e
}

// unkeep records that rel's contents are not kept, and why.
func (sc *scan) unkeep(rel string, e Entry, reason string) Entry {
	if len(reason) > maxReasonLen {
		reason = reason[:maxReasonLen]
	}
	e.Kind, e.Reason, e.Hash, e.Link = KindUnkept, reason, Hash{}, ""
	sc.nUnk++
	if len(sc.unkept) < maxUnkeptListed {
		sc.unkept = append(sc.unkept, Unkept{Path: rel, Reason: reason})
	}
	return e
}

// readLimited reads a regular file without following a link or blocking
// on a FIFO swapped in since the stat, and refuses one over limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("no longer a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("grew past the per-file limit (%d bytes)", limit)
	}
	return data, nil
}

// entryOf fills an entry's stat fields from info.
func entryOf(name string, info fs.FileInfo) Entry {
	e := Entry{Name: name, Mode: info.Mode(), Size: info.Size(), MTime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		e.Inode = st.Ino
	}
	if !e.Mode.IsRegular() {
		e.Size = 0
	}
	return e
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// errText is an error's text without the path it usually repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
