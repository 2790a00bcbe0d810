package bashmode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Timing of a run's end.
const (
	// CancelGrace is how long Cancel lets the process group end after the
	// hangup before it kills what is left with SIGKILL.
	CancelGrace = 500 * time.Millisecond
	// DrainGrace is how long output is still read after the shell exits
	// while something else (a background process) keeps the terminal open.
	DrainGrace = 200 * time.Millisecond
)

// readChunk is the size of one read from the terminal.
const readChunk = 32 << 10

// Run is a command running in a pseudo-terminal. One goroutine reads its
// output into a Term; the methods are safe for concurrent use.
type Run struct {
	cmd    *exec.Cmd
	master *os.File

	mu     sync.Mutex // guards term, log, result and closed
	term   *Term
	log    outputLog
	result Result
	closed bool // master is closed

	updates    chan struct{}
	done       chan struct{}
	cancel     chan struct{}
	cancelOnce sync.Once
	exited     chan error    // the shell's Wait result
	readDone   chan struct{} // the reader has stopped
}

// Start runs command as `shell -c command` in a new pseudo-terminal, in a
// session and process group of its own whose stdin, stdout and stderr are
// that terminal. The run ends when the shell has exited and its output is
// read, or on Cancel, or when ctx ends (which is the same as Cancel).
//
// When the shell exits on its own, the terminal hangs up its process group
// as a closing terminal does; background processes that ignore the hangup
// keep running, and what they print after DrainGrace is not read.
func Start(ctx context.Context, command string, opts Options) (*Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("run %q: %w", command, err)
	}
	opts = opts.withDefaults()
	cmd := exec.Command(opts.shell(), "-c", command)
	cmd.Dir = opts.Dir
	cmd.Env = opts.ptyEnv()
	master, err := startPTY(cmd, opts.Cols, opts.Rows)
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", command, err)
	}
	r := &Run{
		cmd:      cmd,
		master:   master,
		term:     NewTerm(opts.Cols, opts.Rows, opts.MaxLines),
		log:      outputLog{dir: opts.LogDir},
		updates:  make(chan struct{}, 1),
		done:     make(chan struct{}),
		cancel:   make(chan struct{}),
		exited:   make(chan error, 1),
		readDone: make(chan struct{}),
	}
	r.term.evict = r.log.add
	go r.read()
	go func() { r.exited <- cmd.Wait() }()
	go r.supervise(ctx)
	return r, nil
}

// read copies the terminal's output into the screen until the terminal
// closes (EIO on Linux once every process has let go of it) or the master
// side is closed.
func (r *Run) read() {
	defer close(r.readDone)
	buf := make([]byte, readChunk)
	for {
		n, err := r.master.Read(buf)
		if n > 0 {
			r.mu.Lock()
			_, _ = r.term.Write(buf[:n])
			r.mu.Unlock()
			select {
			case r.updates <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// supervise waits for the end of the run, stops it when cancelled, and
// settles the result.
func (r *Run) supervise(ctx context.Context) {
	var waitErr error
	cancelled, drained := false, false
	select {
	case waitErr = <-r.exited:
	case <-ctx.Done():
		cancelled = true
	case <-r.cancel:
		cancelled = true
	}
	if cancelled {
		waitErr, drained = r.stop()
	}
	if !drained {
		grace := time.NewTimer(DrainGrace)
		select {
		case <-r.readDone:
		case <-grace.C:
		}
		grace.Stop()
	}
	r.mu.Lock()
	r.closed = true
	_ = r.master.Close() // ends a pending Read at once
	r.mu.Unlock()
	<-r.readDone
	r.settle(cancelled, waitErr)
	close(r.done)
}

// stop hangs up the process group, waits for the shell to exit and the
// terminal to close, up to CancelGrace, then kills the rest of the group.
func (r *Run) stop() (waitErr error, drained bool) {
	pid := r.cmd.Process.Pid
	killGroup(pid, hangupSignals...)
	grace := time.NewTimer(CancelGrace)
	defer grace.Stop()
	exited, readDone := r.exited, r.readDone
	for exited != nil || readDone != nil {
		select {
		case waitErr = <-exited:
			exited = nil
		case <-readDone:
			readDone, drained = nil, true
		case <-grace.C:
			killGroup(pid, killSignal)
			if exited != nil {
				waitErr = <-exited
			}
			return waitErr, drained
		}
	}
	// The shell and everything holding the terminal are gone; members of
	// the group that let go of the terminal may remain.
	killGroup(pid, killSignal)
	return waitErr, drained
}

// settle records the result once the reader has stopped.
func (r *Run) settle(cancelled bool, waitErr error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := Result{Cancelled: cancelled}
	var exitErr *exec.ExitError
	switch {
	case cancelled:
	case waitErr == nil:
		res.ExitCode = new(int)
	case errors.As(waitErr, &exitErr) && exitErr.ExitCode() >= 0:
		code := exitErr.ExitCode()
		res.ExitCode = &code
	}
	out, cut := truncateTail(r.term.Plain(), OutputMaxLines, OutputMaxBytes)
	res.Output = out
	res.Truncated = cut || r.term.droppedRows() > 0
	if res.Truncated {
		res.FullOutputPath = r.log.finish(r.term)
	} else {
		r.log.discard()
	}
	r.result = res
}

// Updates signals that the screen changed. It holds at most one pending
// signal, so a slow reader sees one signal for many changes; it is never
// closed (watch Done for the end).
func (r *Run) Updates() <-chan struct{} { return r.updates }

// Done is closed when the run has ended and its Result is settled.
func (r *Run) Done() <-chan struct{} { return r.done }

// Result returns how the run ended; it is the zero Result until Done is
// closed.
func (r *Run) Result() Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.result
}

// Snapshot returns the screen as it is now.
func (r *Run) Snapshot() Screen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.term.Snapshot()
}

// Tail returns the last n rows of the screen as it is now.
func (r *Run) Tail(n int) Screen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.term.Tail(n)
}

// Cancel stops the run: the command's whole process group gets SIGHUP and
// SIGTERM, and SIGKILL once the shell and the terminal have closed or
// CancelGrace has passed. It returns at once and may be called any number
// of times; Done tells when the run has ended.
func (r *Run) Cancel() {
	r.cancelOnce.Do(func() { close(r.cancel) })
}

// Resize changes the terminal's size; the command gets SIGWINCH. After the
// run has ended it does nothing.
func (r *Run) Resize(cols, rows int) error {
	if cols <= 0 || rows <= 0 {
		return fmt.Errorf("resize to %dx%d: size must be positive", cols, rows)
	}
	cols, rows = min(cols, MaxCols), min(rows, 0xffff)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.term.Resize(cols, rows)
	if err := setSize(r.master, cols, rows); err != nil {
		return fmt.Errorf("resize terminal: %w", err)
	}
	return nil
}

// Write sends input to the command, as typed on its terminal (the
// terminal echoes it). It blocks while the terminal's input buffer is
// full, until the run ends.
func (r *Run) Write(p []byte) (int, error) {
	n, err := r.master.Write(p)
	if err != nil {
		return n, fmt.Errorf("write to command: %w", err)
	}
	return n, nil
}
