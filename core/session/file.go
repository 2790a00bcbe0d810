package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Errors a caller may need to tell apart.
var (
	// ErrNotSession means a file's first line is not a session header.
	ErrNotSession = errors.New("not a session file")
	// ErrOldVersion means the file uses pi's version 1 format, which has
	// no entry ids; opening it once with pi migrates it.
	ErrOldVersion = errors.New("session file uses format version 1 (no entry ids): open it once with pi to migrate it")
	// ErrReadOnly means the file could only be opened for reading.
	ErrReadOnly = errors.New("session file is read-only")
	// ErrUnknownEntry means an entry id is not in the session.
	ErrUnknownEntry = errors.New("no such entry")
)

// Warning reports a line of a session file that was skipped, or an entry
// kept only as raw JSON. A file with warnings still opens: nothing before or
// after the line is lost.
type Warning struct {
	Line   int   // 1-based line number
	Offset int64 // byte offset of the line
	// Truncated is set for a last line that ends without a newline and
	// does not parse: a write cut short, typically by a crash.
	Truncated bool
	// Kept is set when the line is a valid entry of a known type whose
	// fields did not decode: it stays in the tree as an UnknownEntry (or
	// its message as a core.RawMessage) and is skipped for the context.
	Kept bool
	Err  error
}

// Error describes the warning for a person.
func (w Warning) Error() string {
	if w.Truncated {
		return fmt.Sprintf("line %d: incomplete last line (a write was cut short), skipped: %v", w.Line, w.Err)
	}
	return fmt.Sprintf("line %d: %v", w.Line, w.Err)
}

// node is the index record of one entry: enough to walk the tree and find
// the line again. entry is set for the entries of the active branch and for
// entries not yet on disk.
type node struct {
	id        string
	parentID  string
	hasParent bool
	parent    int // index of the parent node, -1 for a root or a missing parent
	typ       EntryType
	line      int
	walk      uint32 // the last walk that visited the node, to stop at loops
	warned    bool   // a Kept warning was reported for the line
	off       int64  // -1 while only in memory
	n         int    // length of the line without its newline
	entry     *Entry
}

// File is one session: a tree of entries in a JSONL file, appended to as
// the conversation goes on. It indexes every entry but keeps decoded only
// the active branch (root to leaf), reading other entries from disk when
// asked. All methods are safe for concurrent use.
type File struct {
	mu     sync.Mutex
	path   string
	header Header
	now    func() time.Time

	fh          *os.File // nil until the file exists
	memory      bool     // kept in memory and never written (NewMemory)
	readOnly    bool
	closed      bool
	persisted   bool  // the header and every entry are on disk
	size        int64 // bytes on disk
	lines       int   // lines on disk, counting an incomplete last one
	needNewline bool  // the file does not end with a newline

	nodes        []node
	byID         map[string]int
	leaf         int // index of the leaf node, -1 before the first entry
	walks        uint32
	hasAssistant bool
	labels       map[string]string
	name         string
	warnings     []Warning

	dec   decoder
	buf   []byte
	spans *spanReader // reads texts kept in the file; nil in memory
}

func newFile(path string, h Header, now func() time.Time) *File {
	if now == nil {
		now = time.Now
	}
	return &File{path: path, header: h, now: now, leaf: -1, byID: map[string]int{}, labels: map[string]string{}}
}

// Open reads the session file at path. Lines are read one at a time with
// no length limit. A corrupt line is skipped and reported in Warnings, as is
// an incomplete last line left by a crash; neither stops the rest of the
// file from loading. The leaf is the last entry in the file, as in pi.
func Open(path string) (*File, error) {
	// Only a regular file (see regfile): a named pipe would block the read.
	fh, err := regfile.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	readOnly := false
	if errors.Is(err, fs.ErrPermission) {
		fh, err = regfile.Open(path)
		readOnly = true
	}
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	f := newFile(path, Header{}, nil)
	f.fh, f.readOnly, f.persisted = fh, readOnly, true
	f.spans = &spanReader{path: path, fh: fh}
	if err := f.load(); err != nil {
		fh.Close()
		return nil, fmt.Errorf("open session %s: %w", path, err)
	}
	return f, nil
}

// noteMeta records what a label or session_info entry says.
func (f *File) noteMeta(e *Entry) {
	switch p := e.Payload.(type) {
	case *LabelEntry:
		if p.Label != "" {
			f.labels[p.TargetID] = p.Label
		} else {
			delete(f.labels, p.TargetID)
		}
	case *SessionInfoEntry:
		if p.Name != "" {
			f.name = p.Name
		}
	}
}

func (f *File) resolve(n *node) int {
	if !n.hasParent {
		return -1
	}
	if p, ok := f.byID[n.parentID]; ok {
		return p
	}
	return -1
}

// pathIndexes returns the node indexes from the root to node i. A parent
// loop (only a hand-edited file has one) ends the walk.
func (f *File) pathIndexes(i int) []int {
	f.walks++
	if f.walks == 0 { // wrapped: forget old marks
		for k := range f.nodes {
			f.nodes[k].walk = 0
		}
		f.walks = 1
	}
	var path []int
	for ; i >= 0 && f.nodes[i].walk != f.walks; i = f.nodes[i].parent {
		f.nodes[i].walk = f.walks
		path = append(path, i)
	}
	slices.Reverse(path)
	return path
}

// decodePath makes the active branch decoded and drops decoded entries
// that are off it and can be read again from disk.
func (f *File) decodePath() error {
	path := f.pathIndexes(f.leaf) // marks the nodes on the path with f.walks
	var missing []int
	for _, i := range path {
		if f.nodes[i].entry == nil {
			missing = append(missing, i)
		}
	}
	for i := range f.nodes {
		if n := &f.nodes[i]; n.entry != nil && n.off >= 0 && n.walk != f.walks {
			n.entry = nil
		}
	}
	if err := f.readEntries(missing); err != nil {
		return err
	}
	f.hasAssistant = false
	for _, i := range path {
		if isAssistant(f.nodes[i].entry) {
			f.hasAssistant = true
			break
		}
	}
	return nil
}

// readEntries decodes the given on-disk entries, reading the file once in
// offset order.
func (f *File) readEntries(idx []int) error {
	if len(idx) == 0 {
		return nil
	}
	slices.SortFunc(idx, func(a, b int) int { return int(f.nodes[a].off - f.nodes[b].off) })
	r := bufio.NewReaderSize(io.NewSectionReader(f.fh, 0, f.size), readBufferSize)
	var pos int64
	for _, i := range idx {
		n := &f.nodes[i]
		if _, err := r.Discard(int(n.off - pos)); err != nil {
			return fmt.Errorf("read line %d: %w", n.line, err)
		}
		var line []byte
		var err error
		if n.n <= r.Size() {
			line, err = r.Peek(n.n)
		} else {
			f.buf = slices.Grow(f.buf[:0], n.n)[:n.n]
			line = f.buf
			_, err = io.ReadFull(r, line)
		}
		if err != nil {
			return fmt.Errorf("read line %d: %w", n.line, err)
		}
		e := f.decodeLine(n, line)
		n.entry = &e
		if n.n <= r.Size() {
			r.Discard(n.n)
		}
		pos = n.off + int64(n.n)
	}
	return nil
}

// decodeLine decodes an indexed line, reporting a line kept only as raw
// JSON in the warnings.
func (f *File) decodeLine(n *node, line []byte) Entry {
	f.dec.spill = spillAt(f.spans, n.off)
	e, err := f.dec.entry(line)
	f.dec.spill = nil
	if err == nil && f.dec.soft != nil && !n.warned {
		n.warned = true
		f.warnings = append(f.warnings, Warning{Line: n.line, Offset: n.off, Kept: true, Err: fmt.Errorf("kept as raw JSON: %w", f.dec.soft)})
	}
	if err != nil {
		// The line changed on disk since it was indexed.
		f.warnings = append(f.warnings, Warning{Line: n.line, Offset: n.off, Err: err})
		e = unknownEntry(entryHead{typ: n.typ, id: n.id, parentID: n.parentID, hasParent: n.hasParent}, []byte("{}"))
	}
	return e
}

func isAssistant(e *Entry) bool {
	if e == nil {
		return false
	}
	m, ok := e.Payload.(*MessageEntry)
	return ok && m.Message != nil && m.Message.MessageRole() == core.RoleAssistant
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// FilePath returns where the session file is (or will be, once written).
func (f *File) FilePath() string { return f.path }

// Header returns the session's header.
func (f *File) Header() Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.header
}

// Persisted reports whether the session is on disk. A new session is
// written when its first assistant message is appended.
func (f *File) Persisted() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.persisted
}

// Warnings returns the lines that were skipped or kept only as raw JSON.
func (f *File) Warnings() []Warning {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.warnings)
}

// Leaf returns the id of the current branch tip, or "" before the first
// entry.
func (f *File) Leaf() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.leaf < 0 {
		return ""
	}
	return f.nodes[f.leaf].id
}

// Name returns the session's display name: the latest session_info entry
// in the file, on any branch.
func (f *File) Name() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.name
}

// Label returns the label set on an entry, or "".
func (f *File) Label(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.labels[id]
}

// Node is an entry's place in the tree, without its payload.
type Node struct {
	ID       string
	ParentID string // "" for a root
	Type     EntryType
	Label    string
}

// Nodes returns every entry's place in the tree, in file order, for a tree
// view; Entry reads an entry's payload.
func (f *File) Nodes() []Node {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Node, len(f.nodes))
	for i, n := range f.nodes {
		out[i] = Node{ID: n.id, ParentID: n.parentID, Type: n.typ, Label: f.labels[n.id]}
	}
	return out
}

// Entry returns the entry with the given id, reading it from disk if it is
// not on the active branch.
func (f *File) Entry(id string) (Entry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.byID[id]
	if !ok {
		return Entry{}, fmt.Errorf("entry %s: %w", id, ErrUnknownEntry)
	}
	n := &f.nodes[i]
	if n.entry != nil {
		return *n.entry, nil
	}
	f.buf = slices.Grow(f.buf[:0], n.n)[:n.n]
	if _, err := f.fh.ReadAt(f.buf, n.off); err != nil {
		return Entry{}, fmt.Errorf("read entry %s at line %d: %w", id, n.line, err)
	}
	return f.decodeLine(n, f.buf), nil
}

// ActiveBranch returns the entries from the root to the leaf.
func (f *File) ActiveBranch() []Entry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.activeBranch()
}

func (f *File) activeBranch() []Entry {
	path := f.pathIndexes(f.leaf)
	out := make([]Entry, len(path))
	for k, i := range path {
		out[k] = *f.nodes[i].entry
	}
	return out
}

// Branch moves the leaf to the entry with the given id: the next entry
// appended becomes its child, starting a new branch. Nothing is written.
func (f *File) Branch(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.byID[id]
	if !ok {
		return fmt.Errorf("branch from %s: %w", id, ErrUnknownEntry)
	}
	f.leaf = i
	if err := f.decodePath(); err != nil {
		return fmt.Errorf("branch from %s: %w", id, err)
	}
	return nil
}

// ResetLeaf moves the leaf before the first entry: the next entry appended
// is a new root (pi does this to re-edit the first user message).
func (f *File) ResetLeaf() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.leaf = -1
	_ = f.decodePath() // reads nothing: the path is empty
}

// Close writes pending data to stable storage and closes the file. A
// session that never got an assistant message is not written at all.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.fh == nil {
		return nil
	}
	if f.spans != nil {
		f.spans.detach()
	}
	var err error
	if !f.readOnly {
		err = f.fh.Sync()
	}
	if cerr := f.fh.Close(); err == nil {
		err = cerr
	}
	f.fh = nil
	if err != nil {
		return fmt.Errorf("close session %s: %w", f.path, err)
	}
	return nil
}

// syncDir makes a new file's directory entry durable. It is best effort:
// some file systems cannot sync directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// newSessionPath is the file name pi gives a session created at ts.
func newSessionPath(dir, ts, id string) string {
	return filepath.Join(dir, fileTimestamp(ts)+"_"+id+".jsonl")
}
