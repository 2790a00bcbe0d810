//go:build unix

package bashmode

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
)

// startPTY starts cmd on a new PTY in a session (and process group) of its
// own and returns the PTY's master side.
//
// pty leaves the master in blocking mode, where a pending Read cannot be
// interrupted by Close. A duplicate set to non-blocking goes through Go's
// poller instead, so closing it always ends the reader, even while a
// background process keeps the terminal open.
func startPTY(cmd *exec.Cmd, cols, rows int) (*os.File, error) {
	master, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return nil, err
	}
	defer master.Close()
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(master.Fd()))
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
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return nil, fmt.Errorf("prepare terminal: %w", err)
	}
	return os.NewFile(uintptr(fd), master.Name()), nil
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

// killGroup sends the signals to every process of the group led by pid.
func killGroup(pid int, sigs ...syscall.Signal) {
	for _, sig := range sigs {
		_ = syscall.Kill(-pid, sig)
	}
}

// Signals of Cancel: first a hangup, as when a terminal closes, then the
// kill for what is left.
var (
	hangupSignals = []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM}
	killSignal    = syscall.SIGKILL
)
