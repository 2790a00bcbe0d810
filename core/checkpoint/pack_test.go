package checkpoint

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzPackIndex: reading a pack's index never panics, and every entry it
// accepts lies between the header and the index.
func FuzzPackIndex(f *testing.F) {
	pw := &packWriter{dir: f.TempDir()}
	must(f, pw.add(objBlob, hashOf([]byte("a")), []byte("a")))
	big := bytes.Repeat([]byte("compressible "), 100)
	must(f, pw.add(objBlob, hashOf(big), big))
	must(f, pw.add(objTree, hashOf([]byte(treeMagic+"\x00")), []byte(treeMagic+"\x00")))
	path, _, err := pw.finish("seed")
	must(f, err)
	seed, err := os.ReadFile(path)
	must(f, err)
	f.Add(seed)
	f.Add([]byte(packMagic + "\x00" + "\x0d\x00\x00\x00\x00\x00\x00\x00" + packTrailer))
	f.Add([]byte(packMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := readPackIndex(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Off < int64(len(packMagic)) || e.Off+e.N > int64(len(b)-trailerLen) {
				t.Fatalf("entry out of bounds: %+v in %d bytes", e, len(b))
			}
			// Decoding checks the hash; it must not panic either.
			_, _ = decodeObject(&e, b[e.Off:e.Off+e.N])
		}
	})
}

// TestPackHoldsAScansNewObjects: a checkpoint creates one pack for all the
// files and directories that changed; compressible files are stored
// compressed and come back byte for byte, others are stored as they are.
func TestPackHoldsAScansNewObjects(t *testing.T) {
	root := t.TempDir()
	text := bytes.Repeat([]byte("the same line again and again\n"), 2000)
	noise := make([]byte, 50_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	must(t, os.MkdirAll(filepath.Join(root, "a/b"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a/b/text"), text, 0o644))
	must(t, os.WriteFile(filepath.Join(root, "noise"), noise, 0o644))
	s, err := Open(Options{Project: root, Dir: t.TempDir()})
	must(t, err)
	ctx := context.Background()
	cp, err := s.Record(ctx, PhaseBefore, "")
	must(t, err)
	packs := packFiles(t, s)
	if len(packs) != 1 {
		t.Fatalf("packs after the first checkpoint: %v", packs)
	}
	info, err := os.Stat(packs[0])
	must(t, err)
	if info.Size() > int64(len(noise)+len(text)/4) {
		t.Errorf("pack is %d bytes for %d of noise and %d of repeated text: text not compressed", info.Size(), len(noise), len(text))
	}
	if cp.Added != int64(len(text)+len(noise)) {
		t.Errorf("added %d bytes, want the files' %d", cp.Added, len(text)+len(noise))
	}
	// Nothing changed: no new pack.
	if _, err := s.Record(ctx, PhaseAfter, ""); err != nil {
		t.Fatal(err)
	}
	if n := len(packFiles(t, s)); n != 1 {
		t.Errorf("an unchanged tree wrote a pack: %d packs", n)
	}
	must(t, os.WriteFile(filepath.Join(root, "a/b/text"), []byte("short now"), 0o644))
	must(t, os.Remove(filepath.Join(root, "noise")))
	if _, err := s.Rewind(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"a/b/text": text, "noise": noise} {
		if got, _ := os.ReadFile(filepath.Join(root, name)); !bytes.Equal(got, want) {
			t.Errorf("%s after rewind: %d bytes, want %d", name, len(got), len(want))
		}
	}
	// A second Store (another cairn) reads what the first wrote.
	other, err := Open(Options{Project: root, Dir: s.Dir()})
	must(t, err)
	if got, err := other.FileAt(cp.ID, "a/b/text"); err != nil || !bytes.Equal(got, text) {
		t.Errorf("another store reads %d bytes, %v", len(got), err)
	}
}

// TestGCRepacks: gc rewrites a pack that holds objects still used beside
// ones no kept checkpoint needs, and the kept checkpoint still rewinds.
func TestGCRepacks(t *testing.T) {
	root := t.TempDir()
	now := time.Unix(1_700_000_000, 0)
	s, err := Open(Options{Project: root, Dir: t.TempDir(), Retention: Retention{Keep: 1}, Now: func() time.Time { now = now.Add(time.Second); return now }})
	must(t, err)
	ctx := context.Background()
	must(t, os.WriteFile(filepath.Join(root, "stays"), []byte("kept by the newest checkpoint"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "goes"), []byte("only in the oldest"), 0o644))
	_, err = s.Record(ctx, PhaseBefore, "")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, "goes"), []byte("changed"), 0o644))
	last, err := s.Record(ctx, PhaseAfter, "")
	must(t, err)
	before, err := s.Size()
	must(t, err)
	res, err := s.GC(nil, 0)
	must(t, err)
	// Gone: the old "goes" and the old root tree.
	if len(res.Removed) != 1 || res.Objects != 2 {
		t.Fatalf("gc removed %v and %d objects, want 1 checkpoint and 2 objects", res.Removed, res.Objects)
	}
	after, err := s.Size()
	must(t, err)
	if after >= before {
		t.Errorf("store %d bytes before gc, %d after", before, after)
	}
	must(t, os.Remove(filepath.Join(root, "stays")))
	must(t, os.Remove(filepath.Join(root, "goes")))
	rw, err := s.Rewind(ctx, last.ID)
	must(t, err)
	if len(rw.NotRestored) != 0 {
		t.Fatalf("not restored after gc: %+v", rw.NotRestored)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "stays")); string(b) != "kept by the newest checkpoint" {
		t.Errorf("stays: %q", b)
	}
}

// TestOlderStoreIsRead: a store written by an older cairn (one file per
// object under blobs/ and trees/, a HEAD file) is read: its checkpoints
// list and rewind, new checkpoints reuse its objects, and gc removes the
// ones no kept checkpoint needs.
func TestOlderStoreIsRead(t *testing.T) {
	root := t.TempDir()
	dir := t.TempDir()
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src/a.go"), []byte("package a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("first b"), 0o644))
	s, err := Open(Options{Project: root, Dir: dir, Now: clock})
	must(t, err)
	ctx := context.Background()
	first, err := s.Record(ctx, PhaseBefore, "")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("second b"), 0o644))
	second, err := s.Record(ctx, PhaseAfter, "")
	must(t, err)
	unpack(t, s, second.ID)

	old, err := Open(Options{Project: root, Dir: dir, Retention: Retention{Keep: 1}, Now: clock})
	must(t, err)
	if head, err := old.Head(); err != nil || head.ID != second.ID {
		t.Fatalf("head of the older store: %v, %v", head, err)
	}
	if list, errs := old.List(); len(list) != 2 || len(errs) != 0 {
		t.Fatalf("list: %d, %v", len(list), errs)
	}
	// Unchanged since its last checkpoint: nothing new is stored.
	third, err := old.Record(ctx, PhaseBefore, "")
	must(t, err)
	if third.Added != 0 || len(packFiles(t, old)) != 0 {
		t.Errorf("an unchanged tree stored %d bytes in %d packs", third.Added, len(packFiles(t, old)))
	}
	must(t, os.RemoveAll(filepath.Join(root, "src")))
	rw, err := old.Rewind(ctx, first.ID)
	must(t, err)
	if len(rw.NotRestored) != 0 {
		t.Fatalf("not restored from the older store: %+v", rw.NotRestored)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/a.go")); string(b) != "package a\n" {
		t.Errorf("src/a.go: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b")); string(b) != "first b" {
		t.Errorf("b: %q", b)
	}
	res, err := old.GC(nil, 0)
	must(t, err)
	if res.Kept != 1 || res.Objects == 0 {
		t.Fatalf("gc of the older store: %+v", res)
	}
	// The newest checkpoint (the rewound state) still restores.
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("third b"), 0o644))
	head, err := old.Head()
	must(t, err)
	rw, err = old.Rewind(ctx, head.ID)
	must(t, err)
	if b, _ := os.ReadFile(filepath.Join(root, "b")); string(b) != "first b" || len(rw.NotRestored) != 0 {
		t.Errorf("b after gc and rewind: %q, %+v", b, rw.NotRestored)
	}
}

// unpack turns s's store into the layout older cairns wrote: every object
// in a file of its own, HEAD naming head, no packs.
func unpack(t *testing.T, s *Store, head string) {
	t.Helper()
	for h, loc := range s.index {
		b, err := s.object(loc.kind, h)
		must(t, err)
		p := s.loosePath(loc.kind, h)
		must(t, os.MkdirAll(filepath.Dir(p), 0o700))
		must(t, os.WriteFile(p, b, 0o600))
	}
	for _, p := range packFiles(t, s) {
		must(t, os.Remove(p))
	}
	must(t, os.WriteFile(filepath.Join(s.Dir(), "HEAD"), []byte(head+"\n"), 0o600))
}

// packFiles lists the store's packs.
func packFiles(t *testing.T, s *Store) []string {
	t.Helper()
	names, err := readDirNames(filepath.Join(s.Dir(), packsDir))
	must(t, err)
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, ".pack") {
			out = append(out, filepath.Join(s.Dir(), packsDir, n))
		}
	}
	slices.Sort(out)
	return out
}
