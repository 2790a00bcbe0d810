package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// packsDir holds the store's packs; the directories of loose objects
// (one file per object, as older cairns wrote them) are still read.
const packsDir = "packs"

// looseDirs are the directories of loose objects, by kind.
var looseDirs = map[byte]string{objBlob: "blobs", objTree: "trees"}

// errDamaged is wrapped by the errors of objects whose bytes do not match
// their name.
var errDamaged = errors.New("damaged")

// objLoc is where a packed object lies.
type objLoc struct {
	pack         int32 // index in objects.packs
	kind, enc    byte
	off, n, size int64
}

// objects finds and stores a Store's objects. It is guarded by Store.mu.
type objects struct {
	dir string
	// packs are the paths of the packs read, index the objects in them.
	packs []string
	index map[Hash]objLoc
	read  map[string]bool
	// loose says the store has directories of loose objects.
	loose bool
	// pw collects the new objects of the scan under way (nil between
	// scans).
	pw *packWriter
}

func (o *objects) openObjects(dir string) {
	o.dir = dir
	o.index, o.read, o.packs = map[Hash]objLoc{}, map[string]bool{}, nil
	for _, d := range looseDirs {
		if _, err := os.Lstat(filepath.Join(dir, d)); err == nil {
			o.loose = true
		}
	}
	o.loadPacks()
}

// loadPacks adds the packs not read yet to the index. A pack whose index
// cannot be read is left out (gc removes it once it is old).
func (o *objects) loadPacks() {
	names, _ := readDirNames(filepath.Join(o.dir, packsDir))
	for _, name := range names {
		if !strings.HasSuffix(name, ".pack") || strings.HasPrefix(name, ".") || o.read[name] {
			continue
		}
		path := filepath.Join(o.dir, packsDir, name)
		entries, err := readPackFile(path)
		if err != nil {
			continue
		}
		o.read[name] = true
		o.addPack(path, entries)
	}
}

// addPack adds a pack's entries to the index; an object already indexed
// keeps its place.
func (o *objects) addPack(path string, entries []packEntry) {
	n := int32(len(o.packs))
	o.packs = append(o.packs, path)
	o.read[filepath.Base(path)] = true
	for i := range entries {
		e := &entries[i]
		if _, ok := o.index[e.Hash]; !ok {
			o.index[e.Hash] = objLoc{pack: n, kind: e.Kind, enc: e.Enc, off: e.Off, n: e.N, size: e.Size}
		}
	}
}

// readPackFile returns the index of the pack at path.
func readPackFile(path string) ([]packEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readPackIndex(f, info.Size())
}

// object returns the bytes of the object h, checked against its name.
// Errors wrap fs.ErrNotExist when the store does not hold it and
// errDamaged when it holds it damaged.
func (o *objects) object(kind byte, h Hash) ([]byte, error) {
	b, err := o.lookup(kind, h)
	if errors.Is(err, fs.ErrNotExist) {
		// Another cairn may have written it, or gc moved it, since
		// the index was read.
		o.index, o.read, o.packs = map[Hash]objLoc{}, map[string]bool{}, nil
		o.loadPacks()
		b, err = o.lookup(kind, h)
	}
	return b, err
}

func (o *objects) lookup(kind byte, h Hash) ([]byte, error) {
	if loc, ok := o.index[h]; ok {
		return o.readPacked(&loc, h)
	}
	if !o.loose {
		return nil, fs.ErrNotExist
	}
	b, err := os.ReadFile(o.loosePath(kind, h))
	if err != nil {
		return nil, err
	}
	if hashOf(b) != h {
		return nil, fmt.Errorf("%w: contents do not match the name", errDamaged)
	}
	return b, nil
}

func (o *objects) readPacked(loc *objLoc, h Hash) ([]byte, error) {
	f, err := os.Open(o.packs[loc.pack])
	if err != nil {
		return nil, err
	}
	defer f.Close()
	stored := make([]byte, loc.n)
	if _, err := f.ReadAt(stored, loc.off); err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	e := packEntry{Kind: loc.kind, Enc: loc.enc, Hash: h, Off: loc.off, N: loc.n, Size: loc.size}
	b, err := decodeObject(&e, stored)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	return b, nil
}

func (o *objects) loosePath(kind byte, h Hash) string {
	x := h.String()
	return filepath.Join(o.dir, looseDirs[kind], x[:2], x[2:])
}

// has reports whether the store holds the object h, or the scan under
// way has stored it.
func (o *objects) has(kind byte, h Hash) bool {
	if _, ok := o.index[h]; ok {
		return true
	}
	if o.pw != nil && o.pw.has[h] {
		return true
	}
	if o.loose {
		_, err := os.Lstat(o.loosePath(kind, h))
		return err == nil
	}
	return false
}

// writeObject stores b as an object of kind under hash h unless it is
// there already, and reports whether it stored it. Objects go to the
// pack of the scan under way.
func (o *objects) writeObject(kind byte, h Hash, b []byte) (bool, error) {
	if o.pw == nil {
		return false, errors.New("checkpoints: object stored outside a scan")
	}
	if o.has(kind, h) {
		return false, nil
	}
	if err := o.pw.add(kind, h, b); err != nil {
		return false, err
	}
	return true, nil
}

// beginPack starts collecting a scan's new objects.
func (o *objects) beginPack() {
	o.pw = &packWriter{dir: filepath.Join(o.dir, packsDir)}
}

// endPack completes the scan's pack (if it stored anything) and indexes
// it; with ok false it drops it.
func (o *objects) endPack(ok bool) error {
	pw := o.pw
	o.pw = nil
	if !ok {
		pw.abort()
		return nil
	}
	path, entries, err := pw.finish(newID(time.Now()))
	if err != nil {
		return fmt.Errorf("checkpoints: store the changed files: %w", err)
	}
	if path != "" {
		o.addPack(path, entries)
	}
	return nil
}

// readBlob returns a blob's bytes, checked against its hash.
func (o *objects) readBlob(h Hash) ([]byte, error) {
	b, err := o.object(objBlob, h)
	switch {
	case errors.Is(err, errDamaged):
		return nil, errors.New("the stored copy is damaged")
	case err != nil:
		return nil, fmt.Errorf("the stored copy is missing (%v)", err)
	}
	return b, nil
}

// readDirNames returns the names in the directory dir.
func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
