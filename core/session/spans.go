package session

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Large tool results stay in the session file: reading a file does not
// decode their text, and appending one keeps only where it was written
// (core.Content.Stored), so a long session does not hold every command's
// output in memory. Session files are only ever appended to, so an offset
// stays valid for the life of the file.

// spanReader reads spans of one session file for the texts kept in it. It
// outlives the File's handle: once the File is closed, each read opens the
// file again.
type spanReader struct {
	mu   sync.Mutex
	path string
	fh   *os.File // the File's handle; nil once it is closed
}

// detach stops using the File's handle, which is about to be closed.
func (r *spanReader) detach() {
	r.mu.Lock()
	r.fh = nil
	r.mu.Unlock()
}

// readAt fills p from offset off of the file.
func (r *spanReader) readAt(p []byte, off int64) error {
	r.mu.Lock()
	fh := r.fh
	r.mu.Unlock()
	if fh != nil {
		_, err := fh.ReadAt(p, off)
		if !errors.Is(err, os.ErrClosed) {
			return err
		}
	}
	g, err := regfile.Open(r.path)
	if err != nil {
		return err
	}
	defer g.Close()
	_, err = g.ReadAt(p, off)
	return err
}

// storedText is a text kept in the session file: the JSON string (quotes
// included) of n bytes at offset off.
type storedText struct {
	r   *spanReader
	off int64
	n   int
}

// Len implements core.StoredText: unescaping only shortens a JSON string,
// so its body's length is a bound on the text's.
func (t *storedText) Len() int { return t.n - 2 }

// Load implements core.StoredText.
func (t *storedText) Load() (string, error) {
	b := make([]byte, t.n)
	if err := t.r.readAt(b, t.off); err != nil {
		return "", fmt.Errorf("read %d bytes at offset %d of %s: %w", t.n, t.off, t.r.path, err)
	}
	var s jsonscan.Scanner
	s.Reset(b)
	text := s.Str()
	if err := s.End(); err != nil {
		return "", fmt.Errorf("the text at offset %d of %s changed on disk: %w", t.off, t.r.path, err)
	}
	return text, nil
}

// spillAt returns the spill for a line read from offset off of the file r
// reads, or nil for a File that is not on disk.
func spillAt(r *spanReader, off int64) core.Spill {
	if r == nil || off < 0 {
		return nil
	}
	return func(start, end int) core.StoredText {
		return &storedText{r: r, off: off + int64(start), n: end - start}
	}
}

// hasLargeText reports whether m is a tool result with a text a file
// would keep out of memory.
func hasLargeText(m core.Message) bool {
	tr, ok := m.(*core.ToolResultMessage)
	if !ok {
		return false
	}
	for i := range tr.Content {
		if tr.Content[i].Stored == nil && len(tr.Content[i].Text) >= core.SpillThreshold {
			return true
		}
	}
	return false
}

// KeptMessage returns the message of entry id as the File keeps it: once a
// large tool result is written, its text is read back from the file when
// needed rather than held (agent.Session keeps this copy). It returns nil
// for an id that is not a message entry.
func (f *File) KeptMessage(id string) core.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.byID[id]
	if !ok || f.nodes[i].entry == nil {
		return nil
	}
	if me, ok := f.nodes[i].entry.Payload.(*MessageEntry); ok {
		return me.Message
	}
	return nil
}
