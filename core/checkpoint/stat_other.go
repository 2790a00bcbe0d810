//go:build !linux

package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// dirBufSize is unused here: the os package reads directories.
const dirBufSize = 0

// listDir returns the entries of the directory abs (refusing a link there
// unless follow), stat fields filled, in name order, leaving out the
// names skip reports. An entry that could not be examined has Kind
// KindUnkept and a Reason.
func listDir(abs string, follow bool, _ []byte, skip func(name string) bool) ([]Entry, error) {
	if !follow {
		if info, err := os.Lstat(abs); err != nil {
			return nil, err
		} else if !info.IsDir() {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: errors.New("no longer a directory")}
		}
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	out := entriesFor(len(names))
	for _, name := range names {
		if skip(name) {
			continue
		}
		info, err := os.Lstat(filepath.Join(abs, name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since the listing
			}
			out = append(out, Entry{Name: name, Kind: KindUnkept, Reason: "could not be examined: " + errText(err)})
			continue
		}
		out = append(out, entryOf(name, info))
	}
	return out, nil
}
