package session

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Fork starts a new session file, next to this one, holding the path from
// the root to the entry with the given id, with the labels of those entries
// re-created at the end; its header's parentSession is this file. This is
// pi's /fork. The new file is written at once (a session kept in memory
// forks into another kept in memory). With an empty id the new
// session is empty (and, like any new session, written with its first
// assistant message). The receiver is unchanged.
func (f *File) Fork(entryID string) (*File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir := filepath.Dir(f.path)
	if entryID == "" && f.memory {
		return NewMemory(f.header.Cwd, f.now), nil
	}
	if entryID == "" {
		return create(dir, f.header.Cwd, f.path, f.now), nil
	}
	i, ok := f.byID[entryID]
	if !ok {
		return nil, fmt.Errorf("fork at %s: %w", entryID, ErrUnknownEntry)
	}
	var path []int
	for _, k := range f.pathIndexes(i) {
		if f.nodes[k].typ != TypeLabel {
			path = append(path, k)
		}
	}
	t := f.now()
	h := Header{Version: Version, ID: newUUID(t), Timestamp: isoTime(t), Cwd: f.header.Cwd, ParentSession: f.path}
	newPath := newSessionPath(dir, h.Timestamp, h.ID)

	var labels []Entry
	parent := f.nodes[path[len(path)-1]].id
	used := map[string]bool{}
	for _, k := range path {
		text, ok := f.labels[f.nodes[k].id]
		if !ok {
			continue
		}
		id := f.newEntryID()
		for used[id] {
			id = f.newEntryID()
		}
		used[id] = true
		p := parent
		labels = append(labels, Entry{Type: TypeLabel, ID: id, ParentID: &p, Timestamp: isoTime(f.now()),
			Payload: &LabelEntry{TargetID: f.nodes[k].id, Label: text}})
		parent = id
	}
	if f.memory {
		h.ParentSession = ""
		return f.forkInMemory(h, path, labels), nil
	}
	if err := f.writeCopy(newPath, h, path, labels); err != nil {
		return nil, fmt.Errorf("fork at %s: %w", entryID, err)
	}
	g, err := Open(newPath)
	if err != nil {
		return nil, err
	}
	g.now = f.now
	return g, nil
}

// writeCopy writes a new session file with the given header, the lines of
// the given entries exactly as they are on disk (or encoded, for entries
// not written yet), then the extra entries.
func (f *File) writeCopy(path string, h Header, idx []int, extra []Entry) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	err = f.copyLines(w, h, idx, extra)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = fh.Sync()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func (f *File) copyLines(w *bufio.Writer, h Header, idx []int, extra []Entry) error {
	w.Write(appendHeader(nil, h))
	w.WriteByte('\n')
	for _, k := range idx {
		n := &f.nodes[k]
		var line []byte
		var err error
		if n.off < 0 {
			line, err = appendEntry(f.buf[:0], n.entry)
		} else {
			line = slices.Grow(f.buf[:0], n.n)[:n.n]
			_, err = f.fh.ReadAt(line, n.off)
		}
		if err != nil {
			return fmt.Errorf("copy entry %s: %w", n.id, err)
		}
		f.buf = line
		w.Write(line)
		w.WriteByte('\n')
	}
	for i := range extra {
		line, err := appendEntry(f.buf[:0], &extra[i])
		if err != nil {
			return err
		}
		f.buf = line
		w.Write(line)
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}
