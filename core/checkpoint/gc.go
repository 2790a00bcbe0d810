package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// GCResult is what a collection removed and what the store holds after.
type GCResult struct {
	// Removed lists the checkpoints dropped by the retention policy.
	Removed []string
	// Kept counts the checkpoints left.
	Kept int
	// Objects and Bytes count the objects (blobs and trees) deleted.
	Objects int
	Bytes   int64
	// StoreBytes is the size of the objects left.
	StoreBytes int64
}

// ObjectGrace keeps unreferenced objects this young: another cairn in the
// same project may be writing a checkpoint whose record is not there yet.
const ObjectGrace = time.Hour

// GC applies the retention policy: it keeps the newest Keep checkpoints
// and, newest first, as many as fit in MaxBytes of objects (the newest is
// always kept), then deletes the objects no kept checkpoint reaches that
// are older than grace by the file system's clock (younger ones may
// belong to a checkpoint another cairn is writing; ObjectGrace is the
// safe choice). protect names checkpoints kept whatever the policy says
// (nil: none).
func (s *Store) GC(protect func(id string) bool, grace time.Duration) (*GCResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gcLocked(protect, grace)
}

func (s *Store) gcLocked(protect func(id string) bool, grace time.Duration) (*GCResult, error) {
	all, _ := s.List()
	res := &GCResult{}
	seen := map[Hash]bool{}
	var used int64
	keep := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		cp := all[i]
		n := len(all) - i
		var size int64
		if h, err := ParseHash(cp.Root); err == nil {
			size = s.reach(h, seen)
		}
		used += size
		within := n == 1 || n <= s.opts.Retention.Keep && used <= s.opts.Retention.MaxBytes
		if within || protect != nil && protect(cp.ID) {
			keep[cp.ID] = true
			continue
		}
		res.Removed = append(res.Removed, cp.ID)
	}
	for _, id := range res.Removed {
		if err := os.Remove(s.recordPath(id)); err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("checkpoints: remove %s: %w", id, err)
		}
	}
	// Reachability again, from the kept records only.
	live := map[Hash]bool{}
	for _, cp := range all {
		if keep[cp.ID] {
			if h, err := ParseHash(cp.Root); err == nil {
				s.reach(h, live)
			}
		}
	}
	res.Kept = len(keep)
	cutoff := time.Now().Add(-grace)
	s.gcPacks(live, cutoff, res)
	if s.loose {
		s.gcLoose(live, cutoff, res)
	}
	// Temporary records a crash left behind.
	if ents, err := os.ReadDir(filepath.Join(s.dir, "records")); err == nil {
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".tmp") {
				continue
			}
			if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
				_ = os.Remove(filepath.Join(s.dir, "records", e.Name()))
			}
		}
	}
	return res, nil
}

// gcPacks drops the objects no kept checkpoint reaches from the packs
// older than cutoff: a pack left with none is removed, one left with some
// is rewritten with only those (the new pack is in place before the old
// one goes, so a crash loses nothing). Unfinished and unreadable packs
// are removed.
func (s *Store) gcPacks(live map[Hash]bool, cutoff time.Time, res *GCResult) {
	dir := filepath.Join(s.dir, packsDir)
	names, _ := readDirNames(dir)
	for _, name := range names {
		unfinished := strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".pack.tmp")
		if !unfinished && (strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".pack")) {
			continue // not the store's
		}
		path := filepath.Join(dir, name)
		info, err := os.Lstat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		size := info.Size()
		if info.ModTime().After(cutoff) {
			res.StoreBytes += size
			continue
		}
		var entries []packEntry
		if !unfinished {
			entries, err = readPackFile(path)
		}
		if unfinished || err != nil {
			if os.Remove(path) == nil {
				res.Bytes += size
			}
			continue
		}
		var keep []packEntry
		for _, e := range entries {
			if live[e.Hash] {
				keep = append(keep, e)
			} else if e.Kind == objTree {
				delete(s.trees, e.Hash)
			}
		}
		newSize := size
		switch {
		case len(keep) == len(entries):
		case len(keep) == 0:
			if err := os.Remove(path); err != nil {
				continue
			}
			newSize = 0
		default:
			if newSize, err = repack(path, keep); err != nil {
				res.StoreBytes += size
				continue
			}
		}
		res.Objects += len(entries) - len(keep)
		res.Bytes += size - newSize
		res.StoreBytes += newSize
	}
	// Objects moved: read the index afresh.
	s.index, s.read, s.packs = map[Hash]objLoc{}, map[string]bool{}, nil
	s.loadPacks()
}

// repack writes the objects keep of the pack at path to a new pack, then
// removes the old one; it returns the new pack's size.
func repack(path string, keep []packEntry) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	pw := &packWriter{dir: filepath.Dir(path)}
	for _, e := range keep {
		stored := make([]byte, e.N)
		if _, err := f.ReadAt(stored, e.Off); err != nil {
			pw.abort()
			return 0, err
		}
		if err := pw.put(e, stored); err != nil {
			pw.abort()
			return 0, err
		}
	}
	np, _, err := pw.finish(newID(time.Now()))
	if err != nil {
		return 0, err
	}
	info, err := os.Stat(np)
	if err != nil {
		return 0, err
	}
	// Should the removal fail, both stay: the objects are twice in the
	// store, and nothing is lost.
	_ = os.Remove(path)
	return info.Size(), nil
}

// gcLoose removes the loose objects (as older cairns stored them) no kept
// checkpoint reaches, older than cutoff.
func (s *Store) gcLoose(live map[Hash]bool, cutoff time.Time, res *GCResult) {
	for _, kind := range []string{"blobs", "trees"} {
		base := filepath.Join(s.dir, kind)
		_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			name := strings.ReplaceAll(strings.TrimPrefix(p, base+string(filepath.Separator)), string(filepath.Separator), "")
			info, ierr := d.Info()
			if ierr != nil {
				return nil
			}
			h, herr := ParseHash(name)
			if herr == nil && live[h] {
				res.StoreBytes += info.Size()
				return nil
			}
			if info.ModTime().After(cutoff) {
				res.StoreBytes += info.Size()
				return nil
			}
			if os.Remove(p) == nil {
				res.Objects++
				res.Bytes += info.Size()
				if herr == nil {
					delete(s.trees, h)
				}
			}
			return nil
		})
	}
}

// reach marks the tree h and everything under it in seen and returns the
// bytes of the objects it newly marked (file sizes stand in for blobs).
func (s *Store) reach(h Hash, seen map[Hash]bool) int64 {
	if seen[h] {
		return 0
	}
	seen[h] = true
	t, err := s.tree(h)
	if err != nil {
		return 0
	}
	size := int64(len(treeMagic) + len(t)*48)
	for i := range t {
		e := &t[i]
		switch e.Kind {
		case KindDir:
			size += s.reach(e.Hash, seen)
		case KindFile:
			if !seen[e.Hash] {
				seen[e.Hash] = true
				size += e.Size
			}
		}
	}
	return size
}

// Size returns the bytes the store's objects and records take on disk.
func (s *Store) Size() (int64, error) {
	var n int64
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n, err
}

// MaybeGC collects when the store holds more checkpoints than the
// retention policy keeps, by a tenth or more (so the cost is paid once in
// a while, not per prompt). It returns nil when it did not collect.
// Retention is best effort: a failed collection loses nothing.
func (s *Store) MaybeGC() (*GCResult, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "records"))
	if err != nil {
		return nil, err
	}
	if len(ents) <= s.opts.Retention.Keep+s.opts.Retention.Keep/10 {
		return nil, nil
	}
	return s.GC(nil, ObjectGrace)
}
