package jsonrpc

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListenMakesAPrivateSocketAndCloseRemovesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	// Nothing of the private directory it was made in is left.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("directory holds %v", entries)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
}

func TestListenRefusesWhatItMustNotReplace(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(file); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("regular file: %v", err)
	}
	if data, _ := os.ReadFile(file); string(data) != "data" {
		t.Fatal("the file was touched")
	}
	live := filepath.Join(dir, "live.sock")
	first, err := Listen(live)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := Listen(live); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("live socket: %v", err)
	}
}

func TestListenReplacesAStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stale.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	_ = l.Close() // a crashed server leaves its socket file behind
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
}

func TestCloseLeavesAReplacementAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("someone else's"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if data, err := os.ReadFile(path); err != nil || string(data) != "someone else's" {
		t.Fatalf("replacement removed: %v", err)
	}
}

func TestDefaultSocketPath(t *testing.T) {
	env := map[string]string{"XDG_RUNTIME_DIR": "/run/user/7"}
	if got := DefaultSocketPath(func(k string) string { return env[k] }, 42); got != "/run/user/7/cairn-42.sock" {
		t.Fatal(got)
	}
	if got := DefaultSocketPath(func(string) string { return "" }, 42); got != filepath.Join(os.TempDir(), "cairn-42.sock") {
		t.Fatal(got)
	}
}
