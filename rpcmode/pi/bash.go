package pi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The limits of a bash command's output, as pi keeps it: the last 2000
// lines or 50 KB, whichever is less; all of it goes to a temporary file.
const (
	bashMaxLines = 2000
	bashMaxBytes = 50 * 1024
)

// BashRunner runs the commands of rpc mode's bash command: a person's
// `!cmd`, not the model's bash tool.
type BashRunner interface {
	// Run runs command until it exits or ctx ends (abort_bash). A run
	// stopped by ctx is not an error: it returns the output so far with
	// Cancelled set and no exit code. An error means the command could not
	// be run at all.
	Run(ctx context.Context, command string) (BashResult, error)
}

// BashResult is what a bash command produced, in pi's shape.
type BashResult struct {
	// Output is stdout and stderr merged, cut to its last 2000 lines or
	// 50 KB.
	Output string `json:"output"`
	// ExitCode is nil when the command was stopped.
	ExitCode  *int `json:"exitCode,omitempty"`
	Cancelled bool `json:"cancelled"`
	Truncated bool `json:"truncated"`
	// FullOutputPath names the temporary file holding all of the output
	// when it was cut.
	FullOutputPath string `json:"fullOutputPath,omitempty"`
}

// ExecBash runs commands with `bash -c` in a process group of their own,
// stdout and stderr merged and stdin empty, keeping the tail of the output
// and spilling all of it to a temporary file once it outgrows the limits.
// Cancelling a run kills the whole group at once; a command that exits on
// its own leaves what it started in the background running.
type ExecBash struct {
	// Dir is the working directory; empty means the process's.
	Dir string
	// Shell is called as `Shell -c command`; empty means /bin/bash, else
	// bash on PATH, else sh.
	Shell string
	// Prefix is prepended to every command on a line of its own (the
	// shellCommandPrefix setting).
	Prefix string
	// TempDir receives full outputs; empty means os.TempDir().
	TempDir string
}

// bashPipeGrace is how long output is still read after the shell exits
// while a background process holds the pipe open.
const bashPipeGrace = 100 * time.Millisecond

// Run implements BashRunner.
func (b *ExecBash) Run(ctx context.Context, command string) (BashResult, error) {
	line := command
	if b.Prefix != "" {
		line = b.Prefix + "\n" + command
	}
	cmd := exec.Command(b.shell(), "-c", line)
	cmd.Dir = b.Dir
	out := &tailBuffer{tempDir: b.TempDir}
	defer out.close()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = bashPipeGrace
	startGroup(cmd)
	if err := cmd.Start(); err != nil {
		return BashResult{}, fmt.Errorf("run %q: %w", command, err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	cancelled := false
	select {
	case err = <-waited:
	case <-ctx.Done():
		cancelled = true
		killGroup(cmd)
		err = <-waited
	}
	res := out.result()
	res.Cancelled = cancelled
	var exitErr *exec.ExitError
	switch {
	case cancelled:
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
		code := 0
		res.ExitCode = &code
	case errors.As(err, &exitErr):
		if code := exitErr.ExitCode(); code >= 0 {
			res.ExitCode = &code
		}
	default:
		return res, fmt.Errorf("run %q: %w", command, err)
	}
	return res, nil
}

func (b *ExecBash) shell() string {
	if b.Shell != "" {
		return b.Shell
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

// tailBuffer collects output with bounded memory: everything until it
// outgrows the limits, then a rolling tail, with all of it copied to a
// temporary file from that moment on.
type tailBuffer struct {
	tempDir string

	mu       sync.Mutex
	tail     []byte
	trimmed  bool // the tail no longer starts at the output's start
	total    int
	newlines int
	file     *os.File
	path     string
	fileErr  bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += len(p)
	t.newlines += bytes.Count(p, []byte{'\n'})
	t.tail = append(t.tail, p...)
	if t.over() {
		t.spill(p)
	}
	if len(t.tail) > 4*bashMaxBytes {
		cut := len(t.tail) - 2*bashMaxBytes
		t.tail = t.tail[:copy(t.tail, t.tail[cut:])]
		t.trimmed = true
	}
	// Never fail: a command must not die of a broken pipe because its
	// full copy could not be written.
	return len(p), nil
}

func (t *tailBuffer) over() bool {
	return t.total > bashMaxBytes || t.newlines+1 > bashMaxLines
}

// spill copies output to the temporary file: at the first call all of it
// (still in the tail, which is never trimmed before), then p.
func (t *tailBuffer) spill(p []byte) {
	if t.fileErr {
		return
	}
	if t.file == nil {
		var id [8]byte
		_, _ = rand.Read(id[:])
		dir := t.tempDir
		if dir == "" {
			dir = os.TempDir()
		}
		path := filepath.Join(dir, "cairn-bash-"+hex.EncodeToString(id[:])+".log")
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			t.fileErr = true
			return
		}
		t.file, t.path = f, path
		p = t.tail
	}
	if _, err := t.file.Write(p); err != nil {
		t.file.Close()
		t.file, t.fileErr = nil, true
	}
}

func (t *tailBuffer) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
}

// result is the output cut to the limits.
func (t *tailBuffer) result() BashResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := t.tail
	if t.trimmed {
		// Start at a line: the cut may have split one.
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
	}
	s := sanitize(string(text))
	s, cut := truncateTail(s, bashMaxLines, bashMaxBytes)
	res := BashResult{Output: s, Truncated: cut || t.over()}
	if res.Truncated && !t.fileErr {
		res.FullOutputPath = t.path
	}
	return res
}

// truncateTail keeps the last whole lines of s within both limits (lines
// are the pieces between '\n', so text ending in a newline has an empty
// last line, as pi counts them). A last line longer than maxBytes keeps its
// end, starting at a character boundary.
func truncateTail(s string, maxLines, maxBytes int) (string, bool) {
	if strings.Count(s, "\n")+1 <= maxLines && len(s) <= maxBytes {
		return s, false
	}
	start, lines, pos := len(s), 0, len(s)
	for lines < maxLines {
		lineStart := strings.LastIndexByte(s[:pos], '\n') + 1
		if len(s)-lineStart > maxBytes {
			if lines == 0 {
				start = len(s) - maxBytes
				for start < len(s) && !utf8.RuneStart(s[start]) {
					start++
				}
			}
			break
		}
		start, lines = lineStart, lines+1
		if lineStart == 0 {
			break
		}
		pos = lineStart - 1
	}
	return s[start:], true
}

// sanitize makes command output safe to show and to send to a model, as
// pi does: terminal escape sequences and carriage returns are removed,
// other control characters (but tab and newline) dropped, and invalid UTF-8
// replaced.
func sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c == '\n' || c == '\t':
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	return b.String()
}

// skipEscape returns the index after the escape sequence starting at s[i]:
// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), or ESC and one
// more byte.
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		return min(j+1, len(s))
	case ']':
		j := i + 2
		for j < len(s) {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			j++
		}
		return len(s)
	}
	return i + 2
}
