package shell

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"
)

// OutputOptions says how much of a command's output an Output keeps and
// where the rest goes.
type OutputOptions struct {
	// MaxLines and MaxBytes bound the tail; zero means DefaultMaxLines and
	// DefaultMaxBytes.
	MaxLines, MaxBytes int
	// TempDir receives the full output once it outgrows the limits; empty
	// means os.TempDir().
	TempDir string
	// OnWrite, when set, sees every piece of output as it is written, raw
	// (escapes and all), for live display. It runs on the writer's
	// goroutine and must not keep p.
	OnWrite func(p []byte)
}

// Output collects a command's output with bounded memory. It keeps a
// rolling tail and, once the output outgrows the limits, copies all of it,
// from the first byte and exactly as written, to a file made by
// CreateOutputFile. Tail gives the clean end of it. Output is safe for one
// writer and concurrent readers.
type Output struct {
	maxLines, maxBytes int
	tempDir            string
	onWrite            func([]byte)

	mu             sync.Mutex
	tail           []byte
	tailLineStart  bool   // tail begins at the start of a line
	held           []byte // everything, until the file is opened
	totalBytes     int
	totalLines     int
	completedLines int
	lastLineBytes  int
	file           *os.File
	path           string
	fileFailed     bool
	closed         bool

	changed chan struct{}
}

// NewOutput returns an empty Output.
func NewOutput(opts OutputOptions) *Output {
	if opts.MaxLines <= 0 {
		opts.MaxLines = DefaultMaxLines
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	return &Output{
		maxLines: opts.MaxLines, maxBytes: opts.MaxBytes, tempDir: opts.TempDir, onWrite: opts.OnWrite,
		tailLineStart: true, changed: make(chan struct{}, 1),
	}
}

// Write records p. It never fails, so a command is never cut off by a
// broken pipe: a file that cannot be written only loses the full copy.
func (o *Output) Write(p []byte) (int, error) {
	o.record(p)
	if o.onWrite != nil {
		o.onWrite(p)
	}
	select {
	case o.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (o *Output) record(p []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.totalBytes += len(p)
	if n := bytes.Count(p, []byte{'\n'}); n == 0 {
		o.lastLineBytes += len(p)
	} else {
		o.completedLines += n
		o.lastLineBytes = len(p) - bytes.LastIndexByte(p, '\n') - 1
	}
	// As pi counts them: a final newline ends a line, it does not start
	// an empty one.
	o.totalLines = o.completedLines
	if o.lastLineBytes > 0 {
		o.totalLines++
	}
	o.tail = append(o.tail, p...)
	if len(o.tail) > 4*o.maxBytes {
		o.trimTail()
	}
	switch {
	case o.closed:
	case o.file == nil && !o.fileFailed && !o.over():
		o.held = append(o.held, p...)
	case o.file == nil && !o.fileFailed:
		o.spill()
		o.writeFile(p)
	default:
		o.writeFile(p)
	}
}

// Changed receives a value after writes. It holds at most one, so a slow
// reader sees one for many writes; it is never closed.
func (o *Output) Changed() <-chan struct{} { return o.changed }

// over reports whether the output has outgrown a limit.
func (o *Output) over() bool {
	return o.totalBytes > o.maxBytes || o.totalLines > o.maxLines
}

// trimTail keeps the last 2*maxBytes bytes of the tail, starting on a
// character boundary.
func (o *Output) trimTail() {
	cut := len(o.tail) - 2*o.maxBytes
	for cut < len(o.tail) && !utf8.RuneStart(o.tail[cut]) {
		cut++
	}
	o.tailLineStart = o.tail[cut-1] == '\n'
	o.tail = o.tail[:copy(o.tail, o.tail[cut:])]
}

// spill opens the file, once, and moves the held output into it. A file
// that cannot be created is not retried.
func (o *Output) spill() {
	f, err := CreateOutputFile(o.tempDir)
	if err != nil {
		o.fileFailed, o.held = true, nil
		return
	}
	o.file, o.path = f, f.Name()
	o.writeFile(o.held)
	o.held = nil
}

func (o *Output) writeFile(p []byte) {
	if o.file == nil {
		return
	}
	if _, err := o.file.Write(p); err != nil {
		o.file.Close()
		o.file, o.fileFailed = nil, true
	}
}

// Tail returns the clean end of the output so far (see Clean), cut to the
// limits. Its totals measure the whole output as written; it is Truncated
// when the output has outgrown a limit, and FullOutputPath then names the
// file holding all of it, unless that file could not be written.
func (o *Output) Tail() Tail {
	o.mu.Lock()
	text := o.tail
	if !o.tailLineStart {
		// The trim may have split a line: start at the next one.
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
	}
	raw := string(text)
	over, totalBytes, totalLines, lastLine := o.over(), o.totalBytes, o.totalLines, o.lastLineBytes
	path := o.path
	if o.fileFailed {
		path = ""
	}
	o.mu.Unlock()

	t := CutTail(Clean(raw), o.maxLines, o.maxBytes)
	t.Truncated = t.Truncated || over
	switch {
	case !t.Truncated:
		t.By = NoLimit
	case t.By == NoLimit && totalBytes > o.maxBytes:
		t.By = ByteLimit
	case t.By == NoLimit:
		t.By = LineLimit
	}
	t.TotalLines, t.TotalBytes, t.LastLineBytes = totalLines, totalBytes, lastLine
	if t.Truncated {
		t.FullOutputPath = path
	}
	return t
}

// Close closes the file of the full output, if one was opened; the file
// stays for whoever reads the path. Output written after Close is kept in
// the tail only.
func (o *Output) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed, o.held = true, nil
	if o.file == nil {
		return nil
	}
	err := o.file.Close()
	o.file = nil
	return err
}

// CreateOutputFile creates an empty file, readable only by the user, for a
// command's full output in dir (empty means os.TempDir()), named
// cairn-bash-<16 hex digits>.log.
func CreateOutputFile(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	return os.OpenFile(filepath.Join(dir, "cairn-bash-"+hex.EncodeToString(id[:])+".log"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}
