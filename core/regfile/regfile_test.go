package regfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRead: each kind of path a hostile project can put where cairn
// expects one of its files, and what Read makes of it. None may block.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "small"), []byte("hello"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big"), bytes.Repeat([]byte("x"), 100), 0o644))
	must(os.Symlink("small", filepath.Join(dir, "link")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(os.Symlink("fifo", filepath.Join(dir, "fifolink")))
	must(os.Mkdir(filepath.Join(dir, "dir"), 0o755))

	tests := []struct {
		name    string
		path    string
		want    string
		wantErr error
		inErr   string
	}{
		{"regular file", filepath.Join(dir, "small"), "hello", nil, ""},
		{"exactly the limit", filepath.Join(dir, "big"), strings.Repeat("x", 100), nil, ""},
		{"link to a regular file", filepath.Join(dir, "link"), "hello", nil, ""},
		{"missing", filepath.Join(dir, "none"), "", fs.ErrNotExist, ""},
		{"named pipe", filepath.Join(dir, "fifo"), "", ErrNotRegular, "a named pipe"},
		{"link to a named pipe", filepath.Join(dir, "fifolink"), "", ErrNotRegular, "a named pipe"},
		{"directory", filepath.Join(dir, "dir"), "", ErrNotRegular, "a directory"},
		{"device", "/dev/zero", "", ErrNotRegular, "a device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBounded(t, tt.path, 100)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Errorf("data = %q, want %q", got, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), tt.inErr) {
				t.Errorf("error %q does not say %q", err, tt.inErr)
			}
		})
	}
}

// TestReadTooLarge: a file past the limit gives its start and an error
// naming the limit, so a caller can use the start and say what was cut.
func TestReadTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 3<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readBounded(t, path, 2<<10)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2 KiB") {
		t.Fatalf("err = %v, want ErrTooLarge naming 2 KiB", err)
	}
	if len(got) != 2<<10 {
		t.Errorf("got %d bytes, want the first %d", len(got), 2<<10)
	}
}

// readBounded calls Read, failing the test if it does not return within a
// few seconds.
func readBounded(t *testing.T, path string, max int64) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := Read(path, max)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(5 * time.Second):
		t.Fatalf("Read(%s) blocked", path)
		return nil, nil
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 4 << 20: "4 MiB", 512 << 10: "512 KiB", 300: "300 bytes", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestOpenFileForWriting: appending creates a missing file and writes a
// regular one, and refuses a named pipe at once (a plain open for writing
// waits for a reader that never comes).
func TestOpenFileForWriting(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		wantErr error
	}{
		{"a new file", filepath.Join(dir, "new.log"), nil},
		{"the same file again", filepath.Join(dir, "new.log"), nil},
		{"a named pipe", fifo, ErrNotRegular},
		{"in a missing directory", filepath.Join(dir, "none", "x.log"), fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				f, err := OpenFile(tt.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
				if err == nil {
					_, err = f.WriteString("line\n")
					f.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
					t.Errorf("err = %v, want %v", err, tt.wantErr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("OpenFile blocked")
			}
		})
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "new.log")); string(data) != "line\nline\n" {
		t.Errorf("appended %q", data)
	}
}
