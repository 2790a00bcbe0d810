package jsonrpc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// DefaultSocketPath is where the socket goes when no --socket is given:
// $XDG_RUNTIME_DIR/cairn-<pid>.sock, or the same name in the temporary
// directory when XDG_RUNTIME_DIR is not set.
func DefaultSocketPath(getenv func(string) string, pid int) string {
	dir := getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "cairn-"+strconv.Itoa(pid)+".sock")
}

// Socket is a listening Unix socket that only its owner may connect to.
// Close stops listening and removes the socket file, unless something else
// has replaced it meanwhile.
type Socket struct {
	*net.UnixListener
	path  string
	info  os.FileInfo
	close sync.Once
	err   error
}

// Path is the socket's file.
func (s *Socket) Path() string { return s.path }

// Listen creates a Unix socket at path with mode 0600. The socket is bound
// in a private directory next to path and linked into place, so it is
// never reachable with looser permissions and an existing file is never
// replaced: a path that exists is refused unless it is a stale socket
// (nobody accepts on it), which is removed first.
func Listen(path string) (*Socket, error) {
	if path == "" {
		return nil, errors.New("the socket path is empty")
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := clearStale(path); err != nil {
		return nil, err
	}
	private, err := os.MkdirTemp(filepath.Dir(path), ".cairn-sock-")
	if err != nil {
		return nil, fmt.Errorf("create the socket next to %s: %w", path, err)
	}
	defer os.RemoveAll(private)
	tmp := filepath.Join(private, "s")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	l.SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		_ = l.Close()
		return nil, fmt.Errorf("make %s private: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		_ = l.Close()
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%s appeared while cairn was creating its socket; pick another --socket path", path)
		}
		return nil, fmt.Errorf("create socket %s: %w", path, err)
	}
	info, err := os.Lstat(path)
	if err != nil {
		_ = l.Close()
		return nil, err
	}
	return &Socket{UnixListener: l, path: path, info: info}, nil
}

// clearStale checks that nothing but a stale socket is at path, and removes
// that.
func clearStale(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s exists and is not a socket; cairn will not replace it: pick another --socket path", path)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		_ = c.Close()
		return fmt.Errorf("%s is in use by another server; pick another --socket path", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%s exists and cairn cannot tell whether it is in use (%v); remove it or pick another --socket path", path, err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove the stale socket %s: %w", path, err)
	}
	return nil
}

// Close stops listening and removes the socket file if it is still the
// one Listen created.
func (s *Socket) Close() error {
	s.close.Do(func() {
		s.err = s.UnixListener.Close()
		if info, err := os.Lstat(s.path); err == nil && os.SameFile(info, s.info) {
			if err := os.Remove(s.path); err != nil && s.err == nil {
				s.err = err
			}
		}
	})
	return s.err
}
