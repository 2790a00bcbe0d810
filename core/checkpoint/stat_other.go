//go:build !linux

package checkpoint

import (
	"os"
	"path/filepath"
)

// lstatAt stats name in the open directory dir without following a link.
func lstatAt(dir *os.File, name string) (Entry, error) {
	info, err := os.Lstat(filepath.Join(dir.Name(), name))
	if err != nil {
		return Entry{}, err
	}
	return entryOf(name, info), nil
}
