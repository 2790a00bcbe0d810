package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// FileError is a settings file cairn could not use in full. When Err is a
// *SyntaxError or the file could not be read, the whole file is ignored
// (and never overwritten) until it is fixed; when Err is a *KeyError, only
// that setting is.
type FileError struct {
	// Path is the file.
	Path string
	// Err is what is wrong: a *SyntaxError, a *KeyError or an I/O error.
	Err error
}

// Error names the file, the problem and what cairn does about it.
func (e *FileError) Error() string {
	var ke *KeyError
	if errors.As(e.Err, &ke) {
		return fmt.Sprintf("settings file %s: %v; using the default instead", e.Path, e.Err)
	}
	return fmt.Sprintf("settings file %s: %v; the file is ignored until it is fixed", e.Path, e.Err)
}

// Unwrap returns the problem, for errors.As.
func (e *FileError) Unwrap() error { return e.Err }

// maxFileBytes bounds a settings file; real ones are a few hundred bytes.
const maxFileBytes = 1 << 20

// readFile returns the settings in path. A missing file holds none. Only
// a regular file of at most maxFileBytes is read (see regfile): a cloned
// project's .cairn/settings.json is read even before it is trusted (for a
// stricter approval mode), and a pipe there would block start-up.
func readFile(path string) (*object, error) {
	data, err := regfile.Read(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return newObject(), nil
	}
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	obj, err := parseObject(data)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return obj, nil
}

// marshalFile is the bytes cairn writes for a settings file.
func marshalFile(o *object) []byte {
	var buf bytes.Buffer
	encode(&buf, o, "")
	buf.WriteByte('\n')
	return buf.Bytes()
}

// Lock timing. A cairn holds the lock for one read-modify-write, a few
// milliseconds; a lock older than lockStale was left by a process that died
// holding it.
const (
	lockStale    = 10 * time.Second
	lockWait     = lockStale + 5*time.Second
	lockMinDelay = 2 * time.Millisecond
	lockMaxDelay = 100 * time.Millisecond
)

// lockFile takes the lock that serialises writers of path across processes:
// the file path+".lock", created exclusively. It waits with growing, jittered
// pauses, breaks a lock older than lockStale, and gives up after lockWait.
// The returned function releases the lock.
func lockFile(path string) (func(), error) {
	lock := path + ".lock"
	deadline := time.Now().Add(lockWait)
	delay := lockMinDelay
	for {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			_ = f.Close()
			return func() { _ = os.Remove(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if breakStaleLock(lock) {
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: another cairn has held %s for %v; if no cairn is running, delete it", path, lock, lockWait)
		}
		time.Sleep(delay/2 + rand.N(delay))
		delay = min(2*delay, lockMaxDelay)
	}
}

// breakStaleLock removes lock if it is older than lockStale, and reports
// whether it did. It checks the file is still the one it judged stale just
// before removing it, which narrows (but cannot close) the window in which
// two cairns breaking the same stale lock remove a fresh one.
func breakStaleLock(lock string) bool {
	info, err := os.Stat(lock)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist) // gone already: try again now
	}
	if time.Since(info.ModTime()) < lockStale {
		return false
	}
	again, err := os.Stat(lock)
	if err != nil || !os.SameFile(info, again) {
		return err != nil && errors.Is(err, fs.ErrNotExist)
	}
	return os.Remove(lock) == nil
}
