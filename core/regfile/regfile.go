package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Sizes callers pass to Read for the kinds of file cairn reads.
const (
	// MaxText bounds a file whose text goes to the model (AGENTS.md,
	// SYSTEM.md, a prompt template): 1 MiB is about 250,000 tokens, more
	// than any context window holds next to a conversation.
	MaxText = 1 << 20
	// MaxConfig bounds a configuration file parsed as a whole (settings,
	// rules, MCP servers, models, key bindings, themes, trust).
	MaxConfig = 4 << 20
)

var (
	// ErrNotRegular is wrapped by the error for a path that leads to
	// something other than a regular file: a directory, a named pipe, a
	// socket or a device.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is wrapped by the error for a file longer than the limit
	// it was read with.
	ErrTooLarge = errors.New("file too large")
)

// Open opens the regular file at path for reading, following symlinks. It
// never blocks on a named pipe or opens a device: anything but a regular
// file is refused with an error wrapping ErrNotRegular. A missing file
// gives an error for which errors.Is(err, fs.ErrNotExist) holds. The
// caller bounds what it reads.
func Open(path string) (*os.File, error) {
	return OpenFile(path, os.O_RDONLY, 0)
}

// OpenFile is Open for any flags of os.OpenFile, for the files cairn
// appends to or rewrites (prompt history, sessions, logs): a named pipe in
// their place would block a write, or a read of what was written, for
// good. A file that does not exist yet is created if flag says so.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	// Look before opening, so a device is never opened at all (opening
	// some has effects), then check the descriptor itself, so a swap
	// after the look gains nothing.
	info, err := os.Stat(path)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return nil, notRegular(path, info.Mode())
	case err != nil && (flag&os.O_CREATE == 0 || !errors.Is(err, fs.ErrNotExist)):
		return nil, err
	}
	f, err := os.OpenFile(path, flag|openFlags, perm)
	if err != nil {
		return nil, err
	}
	info, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, info.Mode())
	}
	return f, nil
}

// Read returns the contents of the regular file at path, opened as Open
// does. A file longer than max bytes gives its first max bytes together
// with an error wrapping ErrTooLarge: a caller that needs the whole file
// treats that as failure, one that can use the start (a context file)
// keeps it and says what was cut.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return data[:max], TooLarge(path, max)
	}
	return data, nil
}

// TooLarge is the error for a file at path longer than max bytes, for
// callers that bound what they read from a file opened with Open.
func TooLarge(path string, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (larger than %s, cairn's limit for it); make it smaller", ErrTooLarge, Size(max))}
}

// notRegular is the error for a path that leads to something else than a
// regular file; like the os package's errors, it names the path.
func notRegular(path string, mode fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s): cairn reads only regular files here; replace it with one or remove it", ErrNotRegular, kind(mode))}
}

// kind names what a file is, for an error a person reads.
func kind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Size writes a byte count the way limits are named in messages: "1 MiB",
// "512 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
