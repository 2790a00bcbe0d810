package tools

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
)

// outputBuffer collects a command's output with bounded memory. It keeps a
// rolling tail for display and, once the output outgrows the limits, copies
// all of it (from the first byte) to a temporary file whose path is reported
// with the truncated result. It is safe for one writer and concurrent
// readers; Changed receives a value after writes, for throttled updates.
type outputBuffer struct {
	mu       sync.Mutex
	maxLines int
	maxBytes int
	tempDir  string
	prefix   string

	tail          []byte
	tailLineStart bool // tail begins at the start of a line
	held          []byte
	totalBytes    int
	totalLines    int
	lastLineBytes int

	file *os.File
	path string

	changed chan struct{}
}

func newOutputBuffer(tempDir, prefix string) *outputBuffer {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	return &outputBuffer{
		maxLines: DefaultMaxLines, maxBytes: DefaultMaxBytes, tempDir: tempDir, prefix: prefix,
		tailLineStart: true, totalLines: 1, changed: make(chan struct{}, 1),
	}
}

// Write records p. It never fails, so a command is never cut off by a
// broken pipe: a temporary file that cannot be written only loses the full
// copy.
func (o *outputBuffer) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.totalBytes += len(p)
	if n := bytes.Count(p, []byte{'\n'}); n == 0 {
		o.lastLineBytes += len(p)
	} else {
		o.totalLines += n
		o.lastLineBytes = len(p) - bytes.LastIndexByte(p, '\n') - 1
	}
	o.tail = append(o.tail, p...)
	if len(o.tail) > 4*o.maxBytes {
		o.trimTail()
	}
	if o.file == nil && o.path == "" && !o.over() {
		o.held = append(o.held, p...)
	} else {
		o.spill()
		o.writeFile(p)
	}
	select {
	case o.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// over reports whether the output has outgrown a limit.
func (o *outputBuffer) over() bool {
	return o.totalBytes > o.maxBytes || o.totalLines > o.maxLines
}

// trimTail keeps the last 2*maxBytes bytes of the tail, starting on a
// character boundary.
func (o *outputBuffer) trimTail() {
	cut := len(o.tail) - 2*o.maxBytes
	for cut < len(o.tail) && !utf8.RuneStart(o.tail[cut]) {
		cut++
	}
	o.tailLineStart = o.tail[cut-1] == '\n'
	o.tail = o.tail[:copy(o.tail, o.tail[cut:])]
}

// spill opens the temporary file, once, and moves the held output into it.
// A file that cannot be created is not retried.
func (o *outputBuffer) spill() {
	if o.file != nil || o.path != "" {
		return
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	path := filepath.Join(o.tempDir, o.prefix+"-"+hex.EncodeToString(id[:])+".log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		o.path = "-" // tried and failed
		o.held = nil
		return
	}
	o.file, o.path = f, path
	o.writeFile(o.held)
	o.held = nil
}

func (o *outputBuffer) writeFile(p []byte) {
	if o.file == nil {
		return
	}
	if _, err := o.file.Write(p); err != nil {
		o.file.Close()
		o.file = nil
	}
}

// snapshot returns the displayable tail cut to the limits, with totals for
// the whole output, and the path of the full copy ("" when there is none).
func (o *outputBuffer) snapshot() (Truncation, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	text := o.tail
	if !o.tailLineStart {
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
	}
	s := string(text)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	t := truncateTail(s, o.maxLines, o.maxBytes)
	t.Truncated = o.over()
	switch {
	case !t.Truncated:
		t.TruncatedBy = ""
	case t.TruncatedBy == "" && o.totalBytes > o.maxBytes:
		t.TruncatedBy = TruncatedByBytes
	case t.TruncatedBy == "":
		t.TruncatedBy = TruncatedByLines
	}
	t.TotalLines, t.TotalBytes = o.totalLines, o.totalBytes
	path := o.path
	if path == "-" {
		path = ""
	}
	return t, path
}

// lastLine returns the length in bytes of the output's last line.
func (o *outputBuffer) lastLine() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lastLineBytes
}

// close closes the temporary file, if one was opened.
func (o *outputBuffer) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file != nil {
		o.file.Close()
		o.file = nil
	}
}
