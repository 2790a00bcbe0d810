package background

import (
	"bytes"
	"os"
	"sync"
)

// output is a background command's output: the last ringBytes bytes in
// memory and everything in a spill file. Offsets count bytes from the
// start of the output. It is safe for one writer and concurrent readers.
type output struct {
	ringBytes int

	mu      sync.Mutex
	buf     []byte // the end of the output; at most 2*ringBytes
	total   int64  // bytes written so far
	file    *os.File
	path    string
	fileErr error // why the spill file stopped being written, if it did
	// changed is closed and replaced at each write, waking every reader
	// waiting for output.
	changed chan struct{}
}

func newOutput(file *os.File, ringBytes int) *output {
	return &output{ringBytes: ringBytes, file: file, path: file.Name(), changed: make(chan struct{})}
}

// Write records p. It never fails, so the command is never cut off by a
// broken pipe: a spill file that cannot be written only loses the copy.
func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.total += int64(len(p))
	o.buf = append(o.buf, p...)
	if len(o.buf) > 2*o.ringBytes {
		o.buf = o.buf[:copy(o.buf, o.buf[len(o.buf)-o.ringBytes:])]
	}
	if o.file != nil && o.fileErr == nil {
		if _, err := o.file.Write(p); err != nil {
			o.fileErr = err
		}
	}
	close(o.changed)
	o.changed = make(chan struct{})
	return len(p), nil
}

// since returns the output from offset from on, as far as memory holds it:
// skipped counts the bytes from there that memory no longer holds (they
// are in the spill file), and next is the offset after data. With
// wholeLines, a last line not yet ended is left for the next read.
func (o *output) since(from int64, wholeLines bool) (data []byte, skipped, next int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	start := o.total - int64(len(o.buf))
	if from < start {
		skipped, from = start-from, start
	}
	if from > o.total {
		from = o.total
	}
	data = o.buf[from-start:]
	if wholeLines {
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	return bytes.Clone(data), skipped, from + int64(len(data))
}

// tail returns the last n bytes of the output kept in memory.
func (o *output) tail(n int) []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	b := o.buf
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return bytes.Clone(b)
}

// wait returns a channel closed at the next write.
func (o *output) wait() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.changed
}

// size returns how many bytes have been written.
func (o *output) size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.total
}

// close closes the spill file; the file stays until remove.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file != nil {
		o.file.Close()
		o.file = nil
	}
}

// remove closes and deletes the spill file.
func (o *output) remove() {
	o.close()
	_ = os.Remove(o.path)
}
