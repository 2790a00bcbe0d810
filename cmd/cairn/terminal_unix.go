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
