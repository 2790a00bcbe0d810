package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreSurvivesACrash: what a crash can leave behind (a temporary
// file, an unfinished pack, objects no record names, a damaged record, a
// damaged blob) does
// not stop the store: listing skips and reports the damaged record, new
// checkpoints are recorded, gc removes the orphans, and a rewind that
// needs the damaged blob names the file instead of restoring it wrongly.
func TestStoreSurvivesACrash(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("first"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("second"), 0o644))
	s, err := Open(Options{Project: root, Dir: t.TempDir()})
	must(t, err)
	ctx := context.Background()
	cp, err := s.Record(ctx, PhaseBefore, "")
	must(t, err)
	// Left by a crash: a half-written temporary record, a record cut
	// short, and a blob no record names.
	must(t, os.WriteFile(filepath.Join(s.Dir(), "records", ".x.json.123.tmp"), []byte("{"), 0o600))
	must(t, os.WriteFile(filepath.Join(s.Dir(), "records", "20990101T000000.000000000Z-deadbeef.json"), []byte(`{"id":`), 0o600))
	packs := filepath.Join(s.Dir(), packsDir)
	pw := &packWriter{dir: packs}
	must(t, pw.add(objBlob, hashOf([]byte("orphan")), []byte("orphan")))
	if _, _, err := pw.finish("orphan"); err != nil {
		t.Fatal(err)
	}
	// A pack being written when cairn was killed, and one cut short.
	must(t, os.WriteFile(filepath.Join(packs, ".123.pack.tmp"), []byte(packMagic+"half"), 0o600))
	must(t, os.WriteFile(filepath.Join(packs, "cut.pack"), []byte(packMagic+"half"), 0o600))
	list, errs := s.List()
	if len(list) != 1 || len(errs) != 1 {
		t.Fatalf("list: %d checkpoints, errors %v", len(list), errs)
	}
	if _, err := s.Record(ctx, PhaseAfter, ""); err != nil {
		t.Fatalf("record after a crash: %v", err)
	}
	res, err := s.GC(nil, 0)
	must(t, err)
	if res.Objects != 1 {
		t.Errorf("gc removed %d objects, want the orphan", res.Objects)
	}
	for _, p := range []string{filepath.Join(s.Dir(), "records", ".x.json.123.tmp"), filepath.Join(packs, ".123.pack.tmp"), filepath.Join(packs, "cut.pack")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("gc left %s: %v", filepath.Base(p), err)
		}
	}
	// A blob damaged on disk (a system crash before it reached the disk).
	damageObject(t, s, hashOf([]byte("first")))
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("changed"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("changed too"), 0o644))
	rw, err := s.Rewind(ctx, cp.ID)
	must(t, err)
	if len(rw.NotRestored) != 1 || rw.NotRestored[0].Path != "a" || !strings.Contains(rw.NotRestored[0].Reason, "damaged") {
		t.Fatalf("not restored: %+v", rw.NotRestored)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b")); string(b) != "second" {
		t.Errorf("b after rewind: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a")); string(b) != "changed" {
		t.Errorf("a was overwritten although its stored copy is damaged: %q", b)
	}
}

// damageObject overwrites the stored bytes of the packed object h.
func damageObject(t *testing.T, s *Store, h Hash) {
	t.Helper()
	loc, ok := s.index[h]
	if !ok {
		t.Fatalf("object %s is not packed", h)
	}
	f, err := os.OpenFile(s.packs[loc.pack], os.O_WRONLY, 0)
	must(t, err)
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, loc.n), loc.off); err != nil {
		t.Fatal(err)
	}
}
