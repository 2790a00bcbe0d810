package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
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

// TestWriteFrom: the content is read from a reader; a reader that fails
// leaves the old file as it was and no temporary file.
func TestWriteFrom(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "copy.jsonl")
	big := strings.Repeat("a line\n", 100000)
	if n, err := WriteFrom(path, strings.NewReader(big), 0o600); err != nil || n != int64(len(big)) {
		t.Fatalf("WriteFrom = %d, %v", n, err)
	}
	if data, _ := os.ReadFile(path); string(data) != big {
		t.Errorf("wrote %d bytes, want %d", len(data), len(big))
	}
	failing := io.MultiReader(strings.NewReader("partial"), iotest.ErrReader(errors.New("disk gone")))
	if _, err := WriteFrom(path, failing, 0o600); err == nil || err.Error() != "disk gone" {
		t.Errorf("WriteFrom of a failing reader: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != big {
		t.Error("a failed WriteFrom changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}
