//go:build linux

package checkpoint

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// fstatat stats name in the directory open as dirfd without following a
// link, relative to the descriptor: no path is resolved again and nothing
// is allocated but the entry.
func fstatat(dirfd int, name string) (Entry, error) {
	var st unix.Stat_t
	err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	for errors.Is(err, unix.EINTR) {
		err = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return Entry{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	e := Entry{Name: name, Mode: modeOf(uint32(st.Mode)), Size: st.Size, MTime: st.Mtim.Nano(), Inode: st.Ino}
	if !e.Mode.IsRegular() {
		e.Size = 0
	}
	return e, nil
}

// modeOf turns a stat mode into an fs.FileMode, as os.Lstat does.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
