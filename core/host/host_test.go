package host

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core/mcp"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Sessions of one project naming the same servers share one set; another
// configuration or directory gets its own; the last release stops it.
func TestMCPSharedPerProjectAndConfiguration(t *testing.T) {
	h := New()
	var started atomic.Int32
	start := func(cfg mcp.Config) func() *mcp.Manager {
		return func() *mcp.Manager { started.Add(1); return mcp.Start(cfg, mcp.Options{}) }
	}
	one := mcp.Config{Servers: []mcp.Server{{Name: "a", Transport: mcp.TransportStdio, Command: "true", Disabled: true}}}
	other := mcp.Config{Servers: []mcp.Server{{Name: "b", Transport: mcp.TransportStdio, Command: "true", Disabled: true}}}
	m1, r1 := h.MCP("/p", one, start(one))
	m2, r2 := h.MCP("/p/", one, start(one))
	m3, r3 := h.MCP("/p", other, start(other))
	m4, r4 := h.MCP("/q", one, start(one))
	if m1 != m2 || m1 == m3 || m1 == m4 || started.Load() != 3 || h.MCPSets() != 3 {
		t.Fatalf("shared wrongly: same %v, started %d, sets %d", m1 == m2, started.Load(), h.MCPSets())
	}
	r1()
	r1() // a second release of the same use changes nothing
	if h.MCPSets() != 3 {
		t.Fatalf("a set stopped while a session still used it")
	}
	r2()
	r3()
	r4()
	if h.MCPSets() != 0 {
		t.Fatalf("%d sets left after every release", h.MCPSets())
	}
	// A nil host shares nothing.
	var none *Host
	n1, nr1 := none.MCP("/p", one, start(one))
	n2, nr2 := none.MCP("/p", one, start(one))
	if n1 == n2 {
		t.Error("a nil host shared a set")
	}
	nr1()
	nr2()
}

// The socket is the person's: a directory others can open, or another
// user's, or a symbolic link, is refused; the socket itself is 0600 and
// goes with Close.
func TestSocketDirectoryMustBePrivate(t *testing.T) {
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(open, func(context.Context, net.Conn) {}); err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Errorf("a 0755 directory: %v", err)
	}
	link := filepath.Join(base, "link")
	private := filepath.Join(base, "private")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(link, func(context.Context, net.Conn) {}); err == nil {
		t.Error("a symbolic link was used as the socket directory")
	}

	if os.Getuid() == 0 {
		theirs := filepath.Join(base, "theirs")
		if err := os.Mkdir(theirs, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Listen(theirs, func(context.Context, net.Conn) {}); err == nil || !strings.Contains(err.Error(), "another user") {
			t.Errorf("another user's directory: %v", err)
		}
	}

	dir := filepath.Join(base, "run", "cairn")
	got := make(chan string, 1)
	s, err := Listen(dir, func(_ context.Context, c net.Conn) {
		buf := make([]byte, 5)
		n, _ := c.Read(buf)
		got <- string(buf[:n])
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, s.Path: 0o600} {
		info, err := os.Stat(path)
		if err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %#o (%v)", path, info.Mode().Perm(), want, err)
		}
	}
	if socks := Sockets(dir); len(socks) != 1 || socks[0] != s.Path {
		t.Errorf("Sockets: %v", socks)
	}
	c, err := Dial(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != "hello" {
		t.Errorf("served %q", g)
	}
	c.Close()
	s.Close()
	if _, err := os.Stat(s.Path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after Close: %v", err)
	}
}

// A socket left by a process that ended is removed when sockets are
// listed; a live one is kept.
func TestStaleSocketsAreRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cairn")
	if err := privateDir(dir); err != nil {
		t.Fatal(err)
	}
	// pid 2^22+1 is above Linux's pid_max limit: no process has it.
	stale := filepath.Join(dir, "4194305.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	s, err := Listen(dir, func(context.Context, net.Conn) {})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if socks := Sockets(dir); len(socks) != 1 || socks[0] != s.Path {
		t.Errorf("Sockets: %v", socks)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale socket is still there: %v", err)
	}
}
