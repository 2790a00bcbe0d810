package bashmode

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
)

// Timing of a run's end.
const (
	// CancelGrace is how long Cancel lets the process group end after the
	// hangup before what is left is killed with SIGKILL.
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
	proc   *shell.Process
	cancel context.CancelFunc // stops proc
	master *os.File

	mu   sync.Mutex // guards term, log, result, closed and pending
	term *Term
	log  outputLog
	// explain, for a sandboxed command, says what the sandbox blocked
	// (sandbox.Policy.Explain); nil otherwise.
	explain func(output string) string
	result  Result
	closed  bool   // master is closed
	pending []byte // input queued by Send, not yet written

	updates    chan struct{}
	done       chan struct{}
	readDone   chan struct{} // the reader has stopped
	inputReady chan struct{} // Send queued input
	inputStop  chan struct{} // closed with the master: the writer stops
	inputDone  chan struct{} // the writer has stopped
}

// Start runs command as `shell -c command` in a new pseudo-terminal, in a
// session and process group of its own (started by the shell package) whose
// stdin, stdout and stderr are that terminal. The run ends when the shell
// has exited and its output is read, or on Cancel, or when ctx ends (which
// is the same as Cancel).
//
// When the shell exits on its own, what it started in the background ends
// with it (see package shell: its reaper, or its process group where there
// is no reaper); what such a process prints after DrainGrace is not read.
func Start(ctx context.Context, command string, opts Options) (*Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("run %q: %w", command, err)
	}
	opts = opts.withDefaults()
	master, tty, err := openPTY(opts.Cols, opts.Rows)
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", command, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	proc, err := shell.Start(ctx, shell.Command{
		Line: command, Shell: opts.Shell, Dir: opts.Dir, Env: opts.ptyEnv(),
		Terminal: tty, Grace: CancelGrace, Sandbox: opts.Sandbox,
	})
	// The command holds the terminal side now; only the master is ours.
	_ = tty.Close()
	if err != nil {
		cancel()
		_ = master.Close()
		return nil, fmt.Errorf("run %q: %w", command, err)
	}
	r := &Run{
		proc:     proc,
		cancel:   cancel,
		master:   master,
		term:     NewTerm(opts.Cols, opts.Rows, opts.MaxLines),
		log:      outputLog{dir: opts.LogDir},
		updates:  make(chan struct{}, 1),
		done:     make(chan struct{}),
		readDone: make(chan struct{}),

		inputReady: make(chan struct{}, 1),
		inputStop:  make(chan struct{}),
		inputDone:  make(chan struct{}),
	}
	r.term.evict = r.log.add
	if p := opts.Sandbox; p != nil {
		home, _ := os.UserHomeDir()
		r.explain = func(out string) string { return p.Explain(out, opts.Dir, home) }
	}
	go r.read()
	go r.writeInput()
	go r.supervise()
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

// supervise waits for the shell to exit (the shell package stops its group
// on Cancel), reads what is left on the terminal and settles the result.
func (r *Run) supervise() {
	exit := r.proc.Wait()
	r.cancel()
	grace := time.NewTimer(DrainGrace)
	select {
	case <-r.readDone:
	case <-grace.C:
	}
	grace.Stop()
	r.mu.Lock()
	r.closed = true
	_ = r.master.Close() // ends a pending Read or Write at once
	r.pending = nil
	r.mu.Unlock()
	close(r.inputStop)
	<-r.readDone
	<-r.inputDone
	r.settle(exit)
	close(r.done)
}

// settle records the result once the reader has stopped.
func (r *Run) settle(exit shell.Exit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := Result{Cancelled: exit.Cancelled}
	if !exit.Cancelled && exit.Code >= 0 {
		code := exit.Code
		res.ExitCode = &code
	}
	tail := shell.CutTail(r.term.Plain(), OutputMaxLines, OutputMaxBytes)
	res.Output = tail.Text
	res.Truncated = tail.Truncated || r.term.droppedRows() > 0
	if r.explain != nil && res.ExitCode != nil && *res.ExitCode != 0 {
		if note := r.explain(res.Output); note != "" {
			res.Output += "\n" + note
		}
	}
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
// SIGTERM, and SIGKILL once the shell has exited or CancelGrace has passed.
// It returns at once and may be called any number of times; Done tells when
// the run has ended.
func (r *Run) Cancel() { r.cancel() }

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
// full, until the run ends; Send queues instead. Input given to Write and
// to Send may interleave.
func (r *Run) Write(p []byte) (int, error) {
	n, err := r.master.Write(p)
	if err != nil {
		return n, fmt.Errorf("write to command: %w", err)
	}
	return n, nil
}
