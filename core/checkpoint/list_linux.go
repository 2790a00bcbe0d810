//go:build linux

package checkpoint

import (
	"errors"
	"io/fs"
	"slices"

	"golang.org/x/sys/unix"
)

// dirBufSize is the getdents buffer: one call lists a directory of a few
// hundred entries.
const dirBufSize = 32 << 10

// listDir returns the entries of the directory abs (without following a
// link there unless follow), stat fields filled, in name order, leaving
// out the names skip reports. It works on the bare descriptor: one open,
// the getdents calls, one fstatat per entry relative to it, one close.
// An entry that could not be examined has Kind KindUnkept and a Reason.
func listDir(abs string, follow bool, buf []byte, skip func(name string) bool) ([]Entry, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(abs, flags, 0)
	for errors.Is(err, unix.EINTR) {
		fd, err = unix.Open(abs, flags, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	defer unix.Close(fd)
	var names []string
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: abs, Err: err}
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	slices.Sort(names)
	out := entriesFor(len(names))
	for _, name := range names {
		if skip(name) {
			continue
		}
		e, err := fstatat(fd, name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since the listing
			}
			e = Entry{Name: name, Kind: KindUnkept, Reason: "could not be examined: " + errText(err)}
		}
		out = append(out, e)
	}
	return out, nil
}
