//go:build unix

package bashmode

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
)

// openPTY opens a pseudo-terminal of the given size and returns its master
// side, for the reader, and its terminal side, for the command.
//
// pty leaves the master in blocking mode, where a pending Read cannot be
// interrupted by Close. A duplicate set to non-blocking goes through Go's
// poller instead, so closing it always ends the reader, even while a
// background process keeps the terminal open.
func openPTY(cols, rows int) (master, tty *os.File, err error) {
	m, tty, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open terminal: %w", err)
	}
	defer m.Close()
	if err := pty.Setsize(m, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		_ = tty.Close()
		return nil, nil, fmt.Errorf("size terminal: %w", err)
	}
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(m.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err == nil {
		err = syscall.SetNonblock(fd, true)
		if err != nil {
			_ = syscall.Close(fd)
		}
	}
	if err != nil {
		_ = tty.Close()
		return nil, nil, fmt.Errorf("prepare terminal: %w", err)
	}
	return os.NewFile(uintptr(fd), m.Name()), tty, nil
}

// setSize tells the terminal (and so the command, by SIGWINCH) its size.
func setSize(master *os.File, cols, rows int) error {
	conn, err := master.SyscallConn()
	if err != nil {
		return err
	}
	ws := pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}
	var errno syscall.Errno
	err = conn.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	})
	if err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
