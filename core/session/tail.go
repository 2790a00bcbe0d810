package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cairn-dev/cairn/core"
)

// Tail is the end of a session file's active branch, read from the end of
// the file without reading the rest: what a resumed session shows first,
// while the whole file is read (Open).
type Tail struct {
	// Messages are the last messages of the branch that ends at the file's
	// last entry, oldest first: at most the number asked for, and none
	// from before a compaction.
	Messages []core.Message
	// Complete says Messages go back to the branch's start.
	Complete bool
	// Stopped says Messages go back to a compaction, and no further.
	Stopped bool
}

// tailChunk is how much of a file's end ReadTail reads at most, and
// tailFirst how much it reads first (then twice as much, and so on, until
// it has the messages asked for).
const (
	tailChunk = 4 << 20
	tailFirst = 256 << 10
)

// ReadTail reads up to limit messages from the end of the session file at
// path: the branch of its last entry, followed back through the entries in
// the file's last few megabytes. Lines that are not entries are skipped,
// as Open skips them (Open reports them). It reads a bounded part of the
// file, however large the file is; a file whose end holds no complete
// entry (one line larger than that part) gives no messages.
func ReadTail(path string, limit int) (Tail, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Tail{}, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return Tail{}, err
	}
	size := fi.Size()
	var t Tail
	for n := int64(tailFirst); ; n *= 2 {
		n = min(n, tailChunk, size)
		buf := make([]byte, n)
		if _, err := fh.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
			return Tail{}, fmt.Errorf("read the end of %s: %w", path, err)
		}
		t = tailOf(buf, limit)
		if len(t.Messages) >= limit || t.Complete || t.Stopped || n == min(tailChunk, size) {
			return t, nil
		}
	}
}

// tailOf reads the tail from buf, the end of a file: its first line is the
// header or a line cut by the start of buf, and is skipped either way.
func tailOf(buf []byte, limit int) Tail {
	lines := bytes.Split(buf, []byte{'\n'})
	first := 1 // the header, or a line cut short
	var d decoder
	byID := map[string]Entry{}
	// next decodes lines from the end until one is an entry.
	i := len(lines)
	next := func() (Entry, bool) {
		for i > first {
			i--
			line := lines[i]
			if isBlank(line) {
				continue
			}
			e, err := d.entry(line)
			if err != nil || e.Type == typeSession {
				continue
			}
			byID[e.ID] = e
			return e, true
		}
		return Entry{}, false
	}
	leaf, ok := next()
	if !ok {
		return Tail{}
	}
	var out []core.Message
	t := Tail{}
	for e := leaf; len(out) < limit; {
		if m, ok := e.Payload.(*MessageEntry); ok && m.Message != nil {
			out = append(out, m.Message)
		}
		if e.Type == TypeCompaction {
			t.Stopped = true
			break
		}
		if e.ParentID == nil {
			t.Complete = true
			break
		}
		p, found := byID[*e.ParentID]
		for !found {
			var more bool
			if _, more = next(); !more {
				break
			}
			p, found = byID[*e.ParentID]
		}
		if !found {
			break
		}
		e = p
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	t.Messages = out
	return t
}
