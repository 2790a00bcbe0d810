package bashmode

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell"
)

// The limits of Result.Output, as pi keeps a bash command's output: the
// last 2000 lines or 50 KB, whichever is less.
const (
	OutputMaxLines = shell.DefaultMaxLines
	OutputMaxBytes = shell.DefaultMaxBytes
)

// Result is how a command ended and what it printed.
type Result struct {
	// ExitCode is the shell's exit status; nil when the run was cancelled
	// or the shell was killed by a signal.
	ExitCode *int
	// Cancelled says the run was stopped by Cancel or its context.
	Cancelled bool
	// Output is what the screen showed, as plain text without escape
	// sequences (progress bars appear in their last state), cut to its
	// last OutputMaxLines lines or OutputMaxBytes bytes.
	Output string
	// Truncated says Output is not all of the output.
	Truncated bool
	// FullOutputPath names a file holding all of the output as plain text;
	// it is set only when Truncated (as pi does), unless the file could
	// not be written.
	FullOutputPath string
}

// Message converts the result to the conversation's record of a `!cmd`
// (excludeFromContext for `!!cmd`), stamped with now.
func (r Result) Message(command string, excludeFromContext bool, now time.Time) *core.BashExecutionMessage {
	return &core.BashExecutionMessage{
		Command:            command,
		Output:             r.Output,
		ExitCode:           r.ExitCode,
		Cancelled:          r.Cancelled,
		Truncated:          r.Truncated,
		FullOutputPath:     r.FullOutputPath,
		Timestamp:          now.UnixMilli(),
		ExcludeFromContext: excludeFromContext,
	}
}

// outputLog writes the full output, as plain text, to a file created on
// first use: rows dropped from the screen as they go, the kept rows at the
// end.
type outputLog struct {
	dir  string
	f    *os.File
	w    *bufio.Writer
	rows int
	buf  []byte
	err  error
}

func (l *outputLog) add(r *row) {
	if l.err != nil {
		return
	}
	if l.f == nil {
		f, err := shell.CreateOutputFile(l.dir)
		if err != nil {
			l.err = fmt.Errorf("create output log: %w", err)
			return
		}
		l.f, l.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	l.buf = l.buf[:0]
	if l.rows > 0 && !r.wrapped {
		l.buf = append(l.buf, '\n')
	}
	l.buf = r.appendPlain(l.buf)
	l.rows++
	if _, err := l.w.Write(l.buf); err != nil {
		l.err = fmt.Errorf("write output log: %w", err)
	}
}

// finish writes the rows still on the screen and closes the file,
// returning its path, or "" when it failed (the partial file is removed).
func (l *outputLog) finish(t *Term) string {
	rows := t.contentRows()
	for i := 0; i < rows; i++ {
		l.add(t.rowAt(t.dropped + i))
	}
	if l.f == nil {
		return ""
	}
	if l.err == nil {
		if err := l.w.Flush(); err != nil {
			l.err = fmt.Errorf("write output log: %w", err)
		}
	}
	if err := l.f.Close(); err != nil && l.err == nil {
		l.err = fmt.Errorf("close output log: %w", err)
	}
	if l.err != nil {
		_ = os.Remove(l.f.Name())
		return ""
	}
	return l.f.Name()
}

// discard closes and removes a log that turned out not to be needed.
func (l *outputLog) discard() {
	if l.f != nil {
		_ = l.f.Close()
		_ = os.Remove(l.f.Name())
	}
}
