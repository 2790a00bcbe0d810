package tools

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
)

// HostFS is a file system a host offers in place of the local one: an
// editor's (ACP's fs/read_text_file and fs/write_text_file), which sees
// buffers not yet saved and shows what cairn writes. Paths are absolute.
// Errors are worded for the model.
type HostFS interface {
	// ReadTextFile returns a text file's content; ok is false when the
	// host does not read files and the local file is to be read.
	ReadTextFile(ctx context.Context, path string) (text string, ok bool, err error)
	// WriteTextFile writes a whole text file; ok is false when the host
	// does not write files and the local file is to be written.
	WriteTextFile(ctx context.Context, path, content string) (ok bool, err error)
}

// HostTerminal runs commands in a host's terminal (ACP's terminal/*), where
// the user watches them.
type HostTerminal interface {
	// Run runs a command line to its end, or until ctx ends or its timeout
	// passes, when it is killed. started receives the host's id for the
	// terminal once it exists. It returns what the command printed (the
	// host may keep only the end of it) and how it ended.
	Run(ctx context.Context, c TerminalCommand, started func(terminalID string)) (TerminalRun, error)
}

// TerminalCommand is a command line for a host terminal: Shell -c Line in
// Dir.
type TerminalCommand struct {
	Shell, Line, Dir string
	// Timeout stops the command after this long; 0 means no limit.
	Timeout time.Duration
	// OutputLimit is the most output, in bytes, the host keeps (its end).
	OutputLimit int
}

// TerminalRun is how a host terminal command ended.
type TerminalRun struct {
	Output string
	// Truncated says the host dropped the start of the output.
	Truncated bool
	Exit      shell.Exit
}

// Workspace is where a tool set's file tools read and write and its bash
// tool runs commands: the local machine, or what a host offers in its
// place once it has said so (SetFS, SetTerminal). The search tools (grep,
// find, ls) and images always use the local files. A nil *Workspace is the
// local machine. Its methods are safe for concurrent use.
type Workspace struct {
	mu   sync.Mutex
	fs   HostFS
	term HostTerminal
}

// NewWorkspace returns a workspace that is the local machine until a host
// offers its own.
func NewWorkspace() *Workspace { return &Workspace{} }

// SetFS routes file reads and writes through fs; nil restores the local
// files.
func (w *Workspace) SetFS(fs HostFS) {
	w.mu.Lock()
	w.fs = fs
	w.mu.Unlock()
}

// SetTerminal routes commands through t; nil restores local shells.
func (w *Workspace) SetTerminal(t HostTerminal) {
	w.mu.Lock()
	w.term = t
	w.mu.Unlock()
}

func (w *Workspace) hostFS() HostFS {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fs
}

func (w *Workspace) terminal() HostTerminal {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.term
}

// imageSniffBytes is how much of a file is read to tell an image.
const imageSniffBytes = 16

// readFile reads the file at abs for read and edit. With a host file
// system, a text file comes from the host (its unsaved buffer included);
// directories, devices and images are still the local machine's, read with
// the same errors as without a host.
func (w *Workspace) readFile(ctx context.Context, abs string) ([]byte, error) {
	fs := w.hostFS()
	if fs == nil {
		return readFile(abs)
	}
	if info, err := os.Stat(abs); err == nil {
		if !info.Mode().IsRegular() || isImageFile(abs) {
			return readFile(abs)
		}
	}
	text, ok, err := fs.ReadTextFile(ctx, abs)
	if !ok {
		return readFile(abs)
	}
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}

// isImageFile says whether the regular file at abs starts like an image.
func isImageFile(abs string) bool {
	f, err := os.Open(abs)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, imageSniffBytes)
	n, _ := io.ReadFull(f, head)
	return sniffImage(head[:n]) != ""
}

// writeFile writes the whole file at abs for write and edit, through the
// host when it has a file system. Its directory must exist.
func (w *Workspace) writeFile(ctx context.Context, abs string, data []byte) error {
	if fs := w.hostFS(); fs != nil {
		ok, err := fs.WriteTextFile(ctx, abs, string(data))
		if ok {
			return err
		}
	}
	// Writing in place keeps an existing file's mode, owner and hard links.
	// abs was resolved (links followed) before the call was approved; a
	// link put in its place since then is refused rather than followed.
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openNoFollow, 0o644)
	if err != nil {
		if info, lerr := os.Lstat(abs); lerr == nil && info.Mode()&os.ModeSymlink != 0 {
			return errors.New("it became a symbolic link after the call was checked, so it was not written; make the call again")
		}
		return unwrapPathError(err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return unwrapPathError(err)
}
