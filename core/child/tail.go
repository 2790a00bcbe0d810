package child

import (
	"bytes"
	"sync"
)

// TailBytes is how much of a helper program's stderr a Tail keeps.
const TailBytes = 4 << 10

// Tail keeps the last TailBytes a helper program wrote to stderr, for the
// error that reports its failure. Set it as the command's Stderr; it is
// safe for concurrent use.
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps p's end.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*TailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-TailBytes:]...)
	}
	return len(p), nil
}

// LastLines returns up to n last lines kept, trailing blanks trimmed.
func (t *Tail) LastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimRight(t.buf, "\n\r ")
	if len(b) > TailBytes {
		b = b[len(b)-TailBytes:]
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
