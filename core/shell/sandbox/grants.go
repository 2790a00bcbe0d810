package sandbox

import (
	"os"
	"path/filepath"
)

// Right is what a grant allows on a path and everything beneath it.
type Right int

// The rights a Policy grants.
const (
	// ReadTree reads and runs files and lists directories.
	ReadTree Right = iota + 1
	// ListDir lists a directory (and those beneath it) without reading
	// files: given to the directories on the way to a denied path.
	ListDir
	// WriteTree reads, writes, creates, removes and renames.
	WriteTree
	// WriteDir is WriteTree without reading or running files: given to
	// the directories of a writable tree on the way to a denied path.
	WriteDir
)

// devices are the device files every command may read, write and control:
// the bit buckets, randomness and terminals.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// Grant is one rule of the sandbox: Right on Path and beneath it.
type Grant struct {
	Path  string
	Right Right
}

// Grants lists what p grants, for Landlock (which only grants, so "read
// everything but the denied paths" is built as grants). Reads: "/" whole
// when nothing is denied; otherwise each directory on the way to a denied
// path may only be listed, and each of its other entries is granted whole,
// recursing only along the way to the denied paths. Writes: the project and
// the writable directories, split the same way around the denied paths
// inside them. Entries that are symbolic links are granted at their target
// (Landlock follows them), and left out when the target is, or holds, a
// denied path. list reads a directory's names; nil means the file system.
func (p Policy) Grants(list func(dir string) ([]string, error)) []Grant {
	if list == nil {
		list = readNames
	}
	s := splitter{holes: p.DenyRead, all: p.DenyRead, list: list}
	out := s.split("/", ReadTree, ListDir)
	for _, w := range append([]string{p.Project}, p.Write...) {
		out = append(out, s.split(w, WriteTree, WriteDir)...)
	}
	return out
}

// splitter grants trees around holes.
type splitter struct {
	holes []string // the denied paths beneath the root being split
	all   []string // every denied path
	list  func(string) ([]string, error)
}

// split grants tree on root, or, when holes lie beneath root, way on root
// and split on each of its entries.
func (s splitter) split(root string, tree, way Right) []Grant {
	var under []string
	for _, h := range s.holes {
		switch {
		case within(root, h):
			return nil
		case within(h, root):
			under = append(under, h)
		}
	}
	if len(under) == 0 {
		return []Grant{{root, tree}}
	}
	out := []Grant{{root, way}}
	names, err := s.list(root)
	if err != nil {
		// Unlistable: it can be listed (if the kernel lets us) but
		// nothing in it is granted.
		return out
	}
	inner := splitter{holes: under, all: s.all, list: s.list}
	for _, name := range names {
		child := filepath.Join(root, name)
		if target, link := s.link(child); link {
			if target != "" {
				out = append(out, Grant{target, tree})
			}
			continue
		}
		out = append(out, inner.split(child, tree, way)...)
	}
	return out
}

// link reports whether path is a symbolic link, and returns its target
// when granting the target whole denies nothing ("" when it would, or the
// link is broken).
func (s splitter) link(path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", true
	}
	for _, h := range s.all {
		if within(target, h) || within(h, target) {
			return "", true
		}
	}
	return target, true
}

// readNames lists dir's entries.
func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
