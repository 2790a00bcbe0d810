package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: a new file gets perm, a replaced one keeps its mode and gets
// the new bytes, and no temporary file is left beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := Write(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", info.Mode().Perm())
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	if string(data) != "two" || info.Mode().Perm() != 0o640 {
		t.Errorf("after replace: %q, mode %v; want \"two\", 0640", data, info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), nil, 0o644); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
