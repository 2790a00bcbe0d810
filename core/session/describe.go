package session

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// describe reads a whole session file for List: the header, names,
// message count and first user message, decoding only what it needs. Most
// lines are only looked at: an entry line that starts with its type (as
// cairn and pi write them) and ends its object is counted by that type
// without decoding the rest, so a large tool result costs the reading of
// its bytes and no more. A file described before, unchanged since (the same
// file, size and modification time), is not read again.
func describe(path string) (Info, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return Info{}, err
	}
	if info, ok := described.get(path, fi); ok {
		return info, nil
	}
	info, err := describeFile(fh, path)
	if err == nil {
		described.put(path, fi, info)
	}
	return info, err
}

func describeFile(fh *os.File, path string) (Info, error) {
	lr := newLineReader(fh)
	var d decoder
	var info Info
	// The newest entry's line, read again at the end for its timestamp.
	lastOff, lastLen := int64(-1), 0
	sawHeader := false
	for {
		line, off, _, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Info{}, err
		}
		if isBlank(line) {
			continue
		}
		if !sawHeader {
			h, err := d.header(line)
			if err != nil {
				return Info{}, err
			}
			sawHeader = true
			info.Path, info.ID, info.Cwd, info.ParentSession = path, h.ID, h.Cwd, h.ParentSession
			info.Created, _ = time.Parse(time.RFC3339Nano, h.Timestamp)
			continue
		}
		typ, ok := leadingType(line)
		if !ok {
			h, err := d.head(line)
			if err != nil {
				continue
			}
			typ = h.typ
		}
		lastOff, lastLen = off, len(line)
		switch {
		case typ == TypeSessionInfo:
			if e, err := d.entry(line); err == nil {
				if p, ok := e.Payload.(*SessionInfoEntry); ok && p.Name != "" {
					info.Name = strings.TrimSpace(p.Name)
				}
			}
		case typ == TypeMessage:
			info.MessageCount++
			if info.FirstMessage == "" {
				if e, err := d.entry(line); err == nil {
					info.FirstMessage = userText(e.Payload)
				}
			}
		}
	}
	if !sawHeader {
		return Info{}, ErrNotSession
	}
	if lastOff >= 0 {
		last := make([]byte, lastLen)
		if _, err := fh.ReadAt(last, lastOff); err == nil {
			if e, err := d.entry(last); err == nil {
				info.LastEntry, _ = time.Parse(time.RFC3339Nano, e.Timestamp)
			}
		}
	}
	return info, nil
}

// leadingType reads the type of an entry line that begins with its "type"
// member and ends its object, without decoding the rest; ok is false for
// any other line (decoded instead). A line cut short by a crash does not
// end its object, so it is not taken for an entry. A line that names its
// type again further on is counted by the first (a list's count is a
// hint; opening the file decodes every line).
func leadingType(line []byte) (EntryType, bool) {
	const prefix = `{"type":"`
	rest, ok := bytes.CutPrefix(line, []byte(prefix))
	if !ok {
		return "", false
	}
	end := bytes.IndexByte(rest, '"')
	if end <= 0 {
		return "", false
	}
	for _, c := range rest[:end] {
		// Type names are plain words; anything else is decoded.
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return "", false
		}
	}
	if t := bytes.TrimRight(line, " \t\r"); t[len(t)-1] != '}' {
		return "", false
	}
	return internType(rest[:end]), true
}

// described keeps what describe found of each file, while the file stays
// as it was: listing the sessions again (the /resume picker, ACP's
// session/list) does not read them again.
var described = &describeCache{entries: map[string]describedFile{}}

// describeLimit bounds the files described kept; past it they are
// forgotten all at once.
const describeLimit = 512

type describeCache struct {
	mu      sync.Mutex
	entries map[string]describedFile
}

type describedFile struct {
	fi   os.FileInfo
	info Info
}

func (c *describeCache) get(path string, fi os.FileInfo) (Info, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.entries[path]
	if !ok || !os.SameFile(d.fi, fi) || d.fi.Size() != fi.Size() || !d.fi.ModTime().Equal(fi.ModTime()) {
		return Info{}, false
	}
	return d.info, true
}

func (c *describeCache) put(path string, fi os.FileInfo, info Info) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= describeLimit {
		clear(c.entries)
	}
	c.entries[path] = describedFile{fi: fi, info: info}
}
