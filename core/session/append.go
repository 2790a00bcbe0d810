package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core"
)

// Append adds an entry with the given payload as a child of the leaf and
// makes it the new leaf. It returns the entry with its new id and
// timestamp.
//
// As in pi, a new session stays in memory until its first assistant
// message; that append writes the header and every entry so far. After
// that each entry is appended to the file in one write, and a message
// entry is followed by an fsync: a crash loses at most the entries since the
// last message. If the file ended with an incomplete line, the entry starts
// on a new line.
//
// On a write error the entry is not added and the error says why. On a
// failed fsync the entry is added (it was written) and the error is
// returned with it. The payload becomes part of the session: do not modify
// it afterwards.
func (f *File) Append(p Payload) (Entry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.checkPayload(p); err != nil {
		return Entry{}, err
	}
	if f.readOnly {
		return Entry{}, fmt.Errorf("append to %s: %w", f.path, ErrReadOnly)
	}
	if f.closed {
		return Entry{}, fmt.Errorf("append to %s: %w", f.path, os.ErrClosed)
	}
	e := &Entry{Type: p.EntryType(), ID: f.newEntryID(), Timestamp: isoTime(f.now()), Payload: p}
	parent := -1
	if f.leaf >= 0 {
		parent = f.leaf
		id := f.nodes[f.leaf].id
		e.ParentID = &id
	}
	line, err := appendEntry(f.buf[:0], e)
	if err != nil {
		return Entry{}, fmt.Errorf("append %s entry: %w", e.Type, err)
	}
	f.buf = line
	n := node{id: e.ID, hasParent: e.ParentID != nil, parent: parent, typ: e.Type, off: -1, n: len(line), entry: e}
	if e.ParentID != nil {
		n.parentID = *e.ParentID
	}
	assistant := isAssistant(e)
	var syncErr error
	switch {
	case f.memory:
		f.add(n)
	case f.persisted:
		if n.off, err = f.write(line); err != nil {
			return Entry{}, fmt.Errorf("append to %s: %w", f.path, err)
		}
		f.lines++
		n.line = f.lines
		if e.Type == TypeMessage {
			syncErr = f.sync()
		}
		if me, ok := p.(*MessageEntry); ok && hasLargeText(me.Message) {
			// Keep the written copy, whose large texts are read back
			// from the file (and the entry as it was, should the line
			// not read back).
			f.dec.spill = spillAt(f.spans, n.off)
			kept, err := f.dec.entry(line)
			f.dec.spill = nil
			if _, ok := kept.Payload.(*MessageEntry); ok && err == nil && f.dec.soft == nil {
				n.entry = &kept
			}
		}
		f.add(n)
	case assistant || f.hasAssistant:
		f.add(n)
		if err := f.flush(); err != nil {
			f.unadd()
			return Entry{}, fmt.Errorf("write session %s: %w", f.path, err)
		}
	default:
		f.add(n)
	}
	if assistant {
		f.hasAssistant = true
	}
	f.noteMeta(e)
	if syncErr != nil {
		return *e, fmt.Errorf("append to %s: %w", f.path, syncErr)
	}
	return *e, nil
}

// AppendMessage appends a message entry and returns its id; see Append.
// With AppendModelChange, AppendThinkingLevel and AppendCompaction it makes
// *File an agent.Store.
func (f *File) AppendMessage(m core.Message) (string, error) {
	var p Payload = &MessageEntry{Message: m}
	if c, ok := m.(*core.CustomMessage); ok {
		// pi keeps an extension's message as a custom_message entry.
		p = &CustomMessageEntry{CustomType: c.CustomType, Content: c.Content, Display: c.Display, Details: c.Details}
	}
	e, err := f.Append(p)
	return e.ID, err
}

// AppendModelChange appends a model_change entry.
func (f *File) AppendModelChange(provider, modelID string) error {
	_, err := f.Append(&ModelChangeEntry{Provider: provider, ModelID: modelID})
	return err
}

// AppendThinkingLevel appends a thinking_level_change entry.
func (f *File) AppendThinkingLevel(level core.ThinkingLevel) error {
	_, err := f.Append(&ThinkingLevelChangeEntry{ThinkingLevel: level})
	return err
}

// AppendCompaction appends a compaction entry, with the files the
// summarised part read and modified as its details (pi's shape), and
// returns its id.
func (f *File) AppendCompaction(r core.CompactionResult) (string, error) {
	details, err := json.Marshal(struct {
		ReadFiles     []string `json:"readFiles"`
		ModifiedFiles []string `json:"modifiedFiles"`
	}{nonNil(r.ReadFiles), nonNil(r.ModifiedFiles)})
	if err != nil {
		return "", err
	}
	if r.Details != nil {
		details = r.Details
	}
	c := &CompactionEntry{Summary: r.Summary, FirstKeptEntryID: r.FirstKeptEntryID,
		TokensBefore: r.TokensBefore, Details: details, SystemMessage: r.SystemMessage, FromHook: r.FromHook}
	if !r.Usage.IsZero() {
		u := r.Usage
		c.Usage = &u
	}
	e, err := f.Append(c)
	return e.ID, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkPayload rejects payloads that would write a broken entry.
func (f *File) checkPayload(p Payload) error {
	switch p := p.(type) {
	case nil:
		return errors.New("append: no payload")
	case *UnknownEntry:
		return errors.New("append: an UnknownEntry can only be copied, not appended")
	case *MessageEntry:
		if p.Message == nil {
			return errors.New("append: message entry without a message")
		}
	case *LabelEntry:
		if _, ok := f.byID[p.TargetID]; !ok {
			return fmt.Errorf("label %s: %w", p.TargetID, ErrUnknownEntry)
		}
	case *ContextEditEntry:
		if _, ok := f.byID[p.TargetID]; !ok {
			return fmt.Errorf("context edit of %s: %w", p.TargetID, ErrUnknownEntry)
		}
	}
	return nil
}

// AppendContextEdit appends an edit that leaves the entry targetID out of
// the context from here on (pi 0.87's context_edit with a null
// replacement) and returns it; see Append.
func (f *File) AppendContextEdit(targetID string) (Entry, error) {
	return f.Append(&ContextEditEntry{TargetID: targetID})
}

func (f *File) add(n node) {
	f.byID[n.id] = len(f.nodes)
	f.nodes = append(f.nodes, n)
	f.leaf = len(f.nodes) - 1
}

// unadd removes the node add just added.
func (f *File) unadd() {
	last := f.nodes[len(f.nodes)-1]
	f.nodes = f.nodes[:len(f.nodes)-1]
	delete(f.byID, last.id) // ids from newEntryID are never reused
	f.leaf = last.parent
}

// write appends one line to the file and returns its offset.
func (f *File) write(line []byte) (int64, error) {
	start := f.size
	var prefix []byte
	if f.needNewline {
		prefix = []byte{'\n'}
		start++
	}
	// One write call per entry, so a crash leaves at most one incomplete
	// line; the newline is part of it.
	out := make([]byte, 0, len(prefix)+len(line)+1)
	out = append(append(append(out, prefix...), line...), '\n')
	written, err := f.fh.Write(out)
	f.size += int64(written)
	if err != nil {
		// Part of the line may be on disk: start the next one afresh.
		f.needNewline = written > 0 || f.needNewline
		return 0, err
	}
	f.needNewline = false
	// Another writer (pi, say) may have appended since we last looked:
	// O_APPEND put the line at the real end, so ask where that was.
	if end, err := f.fh.Seek(0, io.SeekCurrent); err == nil && end != f.size {
		start += end - f.size
		f.size = end
	}
	return start, nil
}

func (f *File) sync() error {
	if err := f.fh.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}

// flush creates the file with the header and every entry so far.
func (f *File) flush() error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b := appendHeader(nil, f.header)
	b = append(b, '\n')
	offs := make([]int64, len(f.nodes)+1)
	for i := range f.nodes {
		offs[i] = int64(len(b))
		var err error
		if b, err = appendEntry(b, f.nodes[i].entry); err != nil {
			return err
		}
		b = append(b, '\n')
	}
	offs[len(f.nodes)] = int64(len(b))
	fh, err := os.OpenFile(f.path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if _, err := fh.Write(b); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return fmt.Errorf("sync: %w", err)
	}
	syncDir(dir)
	f.fh, f.persisted, f.size, f.needNewline = fh, true, int64(len(b)), false
	f.spans = &spanReader{path: f.path, fh: fh}
	for i := range f.nodes {
		f.nodes[i].off = offs[i]
		f.nodes[i].n = int(offs[i+1]-offs[i]) - 1
		f.nodes[i].line = i + 2
	}
	f.lines = len(f.nodes) + 1
	return nil
}
