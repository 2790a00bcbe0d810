package editor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/regfile"
)

// history is the list of submitted inputs, oldest first, and where the
// person is while browsing it.
type history struct {
	entries []string
	limit   int
	// browsing is true while an entry is shown; pos is then its index.
	browsing bool
	pos      int
	// draft is what was being typed when browsing began.
	draft draft
}

// draft is a snapshot of the input: its buffer runes (markers included)
// and the pastes they refer to.
type draft struct {
	runes  []rune
	pastes pastes
}

// add appends text unless it repeats the newest entry, and reports whether
// it did.
func (h *history) add(text string) bool {
	h.stopBrowsing()
	if n := len(h.entries); n > 0 && h.entries[n-1] == text {
		return false
	}
	h.entries = capEntries(append(h.entries, text), h.limit)
	return true
}

func (h *history) stopBrowsing() {
	h.browsing = false
	h.draft = draft{}
}

// capEntries keeps the newest limit entries.
func capEntries(entries []string, limit int) []string {
	if len(entries) <= limit {
		return entries
	}
	return append(entries[:0:0], entries[len(entries)-limit:]...)
}

// historyPrev shows the entry before the one shown (or the newest, when
// not browsing yet), with the cursor at the end of its first line.
func (s *state) historyPrev() bool {
	h := &s.hist
	if !h.browsing {
		if len(h.entries) == 0 {
			return false
		}
		h.draft = draft{runes: []rune(s.buf.text(writeRune)), pastes: s.pastes.clone()}
		h.browsing, h.pos = true, len(h.entries)
	}
	if h.pos == 0 {
		return false
	}
	h.pos--
	s.showEntry(h.entries[h.pos], true)
	return true
}

// historyNext shows the entry after the one shown, or gives back the draft
// after the newest entry, with the cursor at the end.
func (s *state) historyNext() bool {
	h := &s.hist
	if !h.browsing {
		return false
	}
	h.pos++
	if h.pos < len(h.entries) {
		s.showEntry(h.entries[h.pos], false)
		return true
	}
	d := h.draft
	h.stopBrowsing()
	s.buf.setText(d.runes)
	s.pastes = d.pastes
	return true
}

// showEntry puts a history entry in the editor, with the cursor at the end
// of its first line or of its last. A popup stays closed on it, so that up
// and down go on browsing history.
func (s *state) showEntry(text string, firstLine bool) {
	s.pastes.reset()
	s.buf.setText(sanitize(text))
	if firstLine {
		s.buf.inputStart()
		s.buf.lineEnd()
	}
	s.comp.dismissed = s.trigger()
}

func writeRune(sb *strings.Builder, r rune) { sb.WriteRune(r) }

// historyLoaded is the history file's content, read by journal.load.
type historyLoaded struct {
	entries []string
	warning error
}

// historyLoaded puts the loaded entries before any submitted meanwhile.
func (s *state) historyLoaded(p historyLoaded) tea.Cmd {
	h := &s.hist
	loaded, current := p.entries, h.entries
	if n := len(loaded); n > 0 && len(current) > 0 && loaded[n-1] == current[0] {
		current = current[1:]
	}
	merged := append(slices.Clone(loaded), current...)
	before := len(merged) - len(h.entries)
	h.entries = capEntries(merged, h.limit)
	if h.browsing {
		h.pos = max(h.pos+before-(len(merged)-len(h.entries)), 0)
	}
	if p.warning == nil {
		return nil
	}
	return func() tea.Msg { return WarningMsg{Err: p.warning} }
}

// journal persists history as JSON lines, {"text": "..."}, newest last.
// Entries are queued in the order they were submitted and written by a
// command; the lock keeps concurrent writes of one editor in that order.
type journal struct {
	path    string
	limit   int
	mu      sync.Mutex
	pending []string
}

type journalEntry struct {
	Text *string `json:"text"`
}

// record queues text and returns the command that writes it.
func (j *journal) record(text string) tea.Cmd {
	j.mu.Lock()
	j.pending = append(j.pending, text)
	j.mu.Unlock()
	return j.flush
}

// flush writes the queued entries; it is a tea.Cmd.
func (j *journal) flush() tea.Msg {
	j.mu.Lock()
	defer j.mu.Unlock()
	batch := j.pending
	j.pending = nil
	if len(batch) == 0 {
		return nil
	}
	if err := appendEntries(j.path, batch); err != nil {
		return WarningMsg{Err: fmt.Errorf("prompt history not saved: %w", err)}
	}
	return nil
}

// load reads the history file; it is a tea.Cmd. Damaged lines are skipped
// and reported in a warning. A file grown past twice the limit is
// rewritten with the newest entries.
func (j *journal) load() tea.Msg {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, total, damaged, err := readEntries(j.path, j.limit)
	var warning error
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		warning = fmt.Errorf("prompt history not loaded: %w", err)
	case damaged > 0:
		warning = fmt.Errorf("prompt history %s: skipped %d damaged line(s); the rest loaded", j.path, damaged)
	case total > 2*j.limit:
		if err := rewriteEntries(j.path, entries); err != nil {
			warning = fmt.Errorf("prompt history not trimmed: %w", err)
		}
	}
	return InternalMsg{historyLoaded{entries: entries, warning: warning}}
}

// readEntries returns the newest limit entries of the file at path without
// consecutive repeats, the number of valid lines and of damaged ones.
func readEntries(path string, limit int) (entries []string, total, damaged int, err error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		raw, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(raw)) > 0 {
			var e journalEntry
			if json.Unmarshal(raw, &e) != nil || e.Text == nil {
				damaged++
			} else {
				total++
				if n := len(entries); n == 0 || entries[n-1] != *e.Text {
					entries = append(entries, *e.Text)
				}
				if len(entries) >= 2*limit {
					entries = capEntries(entries, limit)
				}
			}
		}
		if err == io.EOF {
			return capEntries(entries, limit), total, damaged, nil
		}
		if err != nil {
			return nil, 0, 0, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

func encodeEntries(texts []string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range texts {
		if err := enc.Encode(journalEntry{Text: &texts[i]}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// appendEntries adds texts to the file at path, creating it and its
// directory if needed. A last line cut short by a crash is ended first, so
// it cannot swallow the new entries.
func appendEntries(path string, texts []string) error {
	data, err := encodeEntries(texts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := regfile.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// rewriteEntries replaces the file at path with texts, atomically.
func rewriteEntries(path string, texts []string) error {
	data, err := encodeEntries(texts)
	if err != nil {
		return err
	}
	// Prompt history is private: a new file is the person's alone.
	return atomicfile.Write(path, data, 0o600)
}
