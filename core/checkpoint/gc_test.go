package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGCKeepsNewest: with Keep 3, gc drops the older checkpoints and the
// objects only they reached, and the kept ones still rewind.
func TestGCKeepsNewest(t *testing.T) {
	root := t.TempDir()
	now := time.Unix(1_700_000_000, 0)
	s, err := Open(Options{Project: root, Dir: t.TempDir(), Retention: Retention{Keep: 3}, Now: func() time.Time { return now }})
	must(t, err)
	ctx := context.Background()
	var ids []string
	for i := range 6 {
		must(t, os.WriteFile(filepath.Join(root, "f"), []byte(fmt.Sprint("version ", i)), 0o644))
		cp, err := s.Record(ctx, PhaseBefore, "")
		must(t, err)
		ids = append(ids, cp.ID)
		now = now.Add(time.Second)
	}
	res, err := s.GC(nil, 0)
	must(t, err)
	if len(res.Removed) != 3 || res.Kept != 3 {
		t.Fatalf("removed %v, kept %d; want 3 and 3", res.Removed, res.Kept)
	}
	// Versions 0-2 lived only in the removed checkpoints: 3 blobs, 3 trees.
	if res.Objects != 6 {
		t.Errorf("deleted %d objects, want 6", res.Objects)
	}
	if _, err := s.Load(ids[0]); err == nil {
		t.Error("removed checkpoint still loads")
	}
	if _, err := s.Rewind(ctx, ids[3]); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "f")); string(b) != "version 3" {
		t.Errorf("after gc and rewind: %q", b)
	}
}

// TestUnkeptIsRecorded: a file over the limit is named in the checkpoint,
// with the reason, never skipped in silence.
func TestUnkeptIsRecorded(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "big"), make([]byte, 100), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "small"), []byte("x"), 0o644))
	s, err := Open(Options{Project: root, Dir: t.TempDir(), Limits: Limits{MaxFileBytes: 10, MaxTotalBytes: 1000}})
	must(t, err)
	cp, err := s.Record(context.Background(), PhaseBefore, "")
	must(t, err)
	if len(cp.Unkept) != 1 || cp.Unkept[0].Path != "big" || cp.UnkeptCount != 1 {
		t.Fatalf("unkept: %+v", cp.Unkept)
	}
}
