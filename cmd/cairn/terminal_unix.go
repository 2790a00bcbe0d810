//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether f is a terminal: a character device that
// answers the terminal ioctl (/dev/null is a character device but no
// terminal, so `cairn hello </dev/null` answers as with -p, as pi does).
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	_ = rc.Control(func(fd uintptr) {
		_, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		ok = err == nil
	})
	return ok
}

// translateNewlines turns the terminal's output processing back on after
// raw mode turned it off, so a newline also returns the cursor to the
// first column: an attached TUI is drawn by a program that cannot see this
// terminal and writes its lines as for a terminal that does that.
func translateNewlines(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		t, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		if err != nil {
			return
		}
		t.Oflag |= unix.OPOST | unix.ONLCR
		_ = unix.IoctlSetTermios(int(fd), ioctlSetTermios, t)
	})
}
