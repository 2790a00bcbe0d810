package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data through a temporary file in the same
// directory, synced before it is renamed over the old one, so a crash
// leaves the old file or the new one and never a mix. A new file gets
// mode perm; an existing file keeps its mode (a user who made it private
// meant it). The directory must exist.
func Write(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, true)
}

// WriteUnsynced is Write without the syncs: a crash of the process still
// leaves the old file or the new one, but a crash of the system may leave
// the new one empty. It is for stores that check what they read (cairn's
// content-addressed checkpoint objects) and for files restored in bulk.
func WriteUnsynced(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, false)
}

// WriteFrom is Write with the new content read from r to its end, so a
// large file (a copy of a long session) is never held in memory whole. It
// returns the number of bytes written.
func WriteFrom(path string, r io.Reader, perm fs.FileMode) (n int64, err error) {
	err = replace(path, perm, true, func(tmp *os.File) error {
		n, err = io.Copy(tmp, r)
		return err
	})
	return n, err
}

func write(path string, data []byte, perm fs.FileMode, sync bool) error {
	return replace(path, perm, sync, func(tmp *os.File) error {
		_, err := tmp.Write(data)
		return err
	})
}

// replace writes path's new content with fill, through a temporary file
// renamed over it.
func replace(path string, perm fs.FileMode, sync bool, fill func(*os.File) error) (err error) {
	dir := filepath.Dir(path)
	mode := perm
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a directory.
	if !sync {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
