package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Dir is the directory of the attach sockets of the person's cairn
// processes: $CAIRN_RUNTIME_DIR, else $XDG_RUNTIME_DIR/cairn, else
// cairn-<uid> in the temporary directory. getenv reads the environment.
func Dir(getenv func(string) string) string {
	if d := getenv("CAIRN_RUNTIME_DIR"); d != "" {
		return d
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "cairn")
	}
	return filepath.Join(os.TempDir(), "cairn-"+strconv.Itoa(os.Getuid()))
}

// privateDir makes dir (mode 0700) or checks the one there: a directory of
// this user's that nobody else can enter. Anything else (another user's
// directory planted in /tmp, a symbolic link, a group- or world-open
// mode) is refused, never used or repaired.
func privateDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory; remove it, or set CAIRN_RUNTIME_DIR to a directory of your own", dir)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d); remove it, or set CAIRN_RUNTIME_DIR to a directory of your own", dir, st.Uid)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s can be opened by other users (mode %#o); run chmod 700 %s", dir, info.Mode().Perm(), dir)
	}
	return nil
}

// Server is the attach socket of this process.
type Server struct {
	// Path is the socket's path.
	Path string
	ln   *net.UnixListener
	wg   sync.WaitGroup
	mu   sync.Mutex
	// conns are the open connections, closed with the server.
	conns  map[net.Conn]struct{}
	closed bool
}

// Listen opens this process's attach socket in dir (made private if
// missing, refused if not private) and serves each connection of the same
// user with serve, on a goroutine of its own; a connection of another
// user is closed unread. Stale sockets of processes that ended are removed.
func Listen(dir string, serve func(ctx context.Context, c net.Conn)) (*Server, error) {
	if err := privateDir(dir); err != nil {
		return nil, fmt.Errorf("attach socket: %w", err)
	}
	removeStale(dir)
	// One socket per host; a process normally has one host (tests make
	// several): the first is <pid>.sock, later ones <pid>-<n>.sock.
	name := strconv.Itoa(os.Getpid())
	if n := sockets.Add(1); n > 1 {
		name += "-" + strconv.FormatInt(n, 10)
	}
	path := filepath.Join(dir, name+".sock")
	_ = os.Remove(path) // a socket of an earlier process with this pid
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("attach socket: %w", err)
	}
	// The directory is the person's alone; the socket is too.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("attach socket: %w", err)
	}
	s := &Server{Path: path, ln: ln, conns: map[net.Conn]struct{}{}}
	ctx, cancel := context.WithCancel(context.Background())
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		for {
			c, err := ln.AcceptUnix()
			if err != nil {
				return
			}
			if !samePerson(c) {
				c.Close()
				continue
			}
			if !s.track(c) {
				c.Close()
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.untrack(c)
				serve(ctx, c)
			}()
		}
	}()
	return s, nil
}

func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// Close stops listening, removes the socket, closes every connection and
// waits (at most closeLimit) for their handlers to return.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.ln.Close()
	_ = os.Remove(s.Path)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeLimit):
	}
}

// closeLimit bounds how long Close waits for the connections' handlers.
const closeLimit = 5 * time.Second

// Sockets lists the attach sockets in dir, oldest process first (by pid
// order, which is all a name tells); stale ones are removed on the way.
func Sockets(dir string) []string {
	removeStale(dir)
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sock") && e.Type()&fs.ModeSocket != 0 {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Slice(out, func(i, j int) bool { return pidOf(out[i]) < pidOf(out[j]) })
	return out
}

func pidOf(path string) int {
	name := strings.TrimSuffix(filepath.Base(path), ".sock")
	if i := strings.IndexByte(name, '-'); i >= 0 {
		name = name[:i]
	}
	n, _ := strconv.Atoi(name)
	return n
}

// sockets counts the sockets this process opened.
var sockets atomic.Int64

// removeStale removes the sockets of processes that no longer run: named
// by a pid that is gone, and refusing connections.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sock") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		pid := pidOf(path)
		if pid <= 0 || pid == os.Getpid() || processRuns(pid) {
			continue
		}
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			c.Close()
			continue
		}
		_ = os.Remove(path)
	}
}

// processRuns reports whether a process with this pid exists.
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Dial connects to an attach socket, waiting at most dialLimit.
func Dial(path string) (net.Conn, error) {
	c, err := net.DialTimeout("unix", path, dialLimit)
	if err != nil {
		return nil, fmt.Errorf("attach to %s: %w", path, err)
	}
	return c, nil
}

// dialLimit bounds connecting to a socket.
const dialLimit = 5 * time.Second
