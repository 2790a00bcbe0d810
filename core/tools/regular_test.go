package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(file, 5); err != nil || string(b) != "hello" {
		t.Errorf("regular file: %q %v", b, err)
	}
	if _, err := ReadRegular(file, 4); err == nil || !strings.Contains(err.Error(), "larger than 4 bytes") {
		t.Errorf("too long: %v", err)
	}
	if _, err := ReadRegular(dir, 100); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	// A pipe would block a plain open until a writer comes: refused
	// without opening it.
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	if _, err := ReadRegular(fifo, 100); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 100); !os.IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
}
