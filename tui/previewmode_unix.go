//go:build unix

package tui

import (
	"os"

	"golang.org/x/sys/unix"
)

// quietInput turns the terminal's echo and line editing off, so what is
// typed while a preview shows waits unechoed, key by key, for the
// interface. Signals stay on: ctrl+c still stops cairn. restore puts the
// mode back.
func quietInput(in *os.File) (restore func(), err error) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO | unix.ICANON
	quiet.Cc[unix.VMIN], quiet.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, setTermios, &quiet); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, setTermios, old) }, nil
}
