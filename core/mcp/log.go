package mcp

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Log file limits: a server's log starts over when it passed maxLogSize, and
// the last tailSize bytes of stderr are kept for error reports.
const (
	maxLogSize = 5 << 20
	tailSize   = 4 << 10
	tailLines  = 10
)

// LogFile is where a server's stderr is kept: <dir>/<server>.log.
func LogFile(dir, server string) string { return filepath.Join(dir, server+".log") }

// stderrLog receives a server's stderr: it appends to the server's log
// file (when one could be opened) and keeps the last bytes in memory for
// reports. Safe for concurrent use.
type stderrLog struct {
	path string

	mu   sync.Mutex
	file *os.File
	tail []byte
}

// openStderrLog opens the log of server in dir; with an empty dir or a file
// that cannot be opened, only the tail is kept.
func openStderrLog(dir, server string) *stderrLog {
	l := &stderrLog{}
	if dir == "" {
		return l
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return l
	}
	path := LogFile(dir, server)
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if info, err := os.Stat(path); err == nil && info.Size() > maxLogSize {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return l
	}
	l.file, l.path = f, path
	return l
}

// start marks a new start of the server in the log and forgets the tail of
// the previous run.
func (l *stderrLog) start(command string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = l.tail[:0]
	if l.file != nil {
		fmt.Fprintf(l.file, "--- %s start: %s\n", now.UTC().Format(time.RFC3339), command)
	}
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		_, _ = l.file.Write(p)
	}
	l.tail = append(l.tail, p...)
	if len(l.tail) > tailSize {
		l.tail = append(l.tail[:0], l.tail[len(l.tail)-tailSize:]...)
	}
	return len(p), nil
}

// lastLines returns the last lines written since the last start.
func (l *stderrLog) lastLines() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(l.tail), "\n"), "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func (l *stderrLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}

var _ io.Writer = (*stderrLog)(nil)
