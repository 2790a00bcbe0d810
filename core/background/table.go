package background

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// Defaults of Options.
const (
	// DefaultRingBytes is how much of each command's output is kept in
	// memory; all of it is in the spill file.
	DefaultRingBytes = 256 << 10
	// DefaultMaxRunning is how many commands may run at once.
	DefaultMaxRunning = 32
	// DefaultGrace is how long a killed command has between SIGTERM and
	// SIGKILL.
	DefaultGrace = time.Second
)

// Errors a caller can branch on.
var (
	// ErrClosed is returned by Start after Close.
	ErrClosed = errors.New("the session has ended: background commands can no longer be started")
	// ErrUnknown is returned for an id the table never gave out.
	ErrUnknown = errors.New("no background command has this id")
	// ErrExited is returned by Kill for a command that has already ended.
	ErrExited = errors.New("the background command has already ended")
)

// Options configures a Table. The zero value is ready to use.
type Options struct {
	// Shell runs the commands as `Shell -c line`; empty means shell.Path("").
	Shell string
	// TempDir holds the spill files; empty means os.TempDir().
	TempDir string
	// RingBytes bounds the output kept in memory per command; zero means
	// DefaultRingBytes.
	RingBytes int
	// MaxRunning bounds the commands running at once; zero means
	// DefaultMaxRunning.
	MaxRunning int
	// Grace is how long a killed command has to end before SIGKILL; zero
	// means DefaultGrace.
	Grace time.Duration
}

// Command is a command line to run in the background.
type Command struct {
	// Line is run as `shell -c Line`.
	Line string
	// Dir is the working directory; empty means the process's.
	Dir string
	// Env is the environment; nil means shell.DefaultEnv, cairn's own
	// without its secrets.
	Env []string
	// Sandbox, when set, runs the command in the OS sandbox with this
	// policy, as a foreground command of the same call would run.
	Sandbox *sandbox.Policy
}

// Info describes one background command at a moment.
type Info struct {
	// ID is the table's id for it: "bash_1", "bash_2", ...
	ID string
	// Command is the command line.
	Command string
	// Dir is where it runs.
	Dir string
	// Pid is its shell's process id, which is also its process group's.
	Pid int
	// Started is when it started; Ended when its shell exited (zero while
	// it runs).
	Started, Ended time.Time
	// Running says its shell has not exited yet.
	Running bool
	// Exit is how it ended; meaningful once Running is false.
	Exit shell.Exit
	// Killed says it was stopped through the table (Kill or Close).
	Killed bool
	// OutputPath is the spill file holding all its output.
	OutputPath string
	// OutputBytes counts the bytes it has written.
	OutputBytes int64
}

// Status describes how the command stands, in a few words: "running",
// "exited with code 0", "killed", "ended by signal killed".
func (i Info) Status() string {
	switch {
	case i.Running:
		return "running"
	case i.Killed:
		return "killed"
	case i.Exit.Signal != "":
		return "ended by signal " + i.Exit.Signal
	case i.Exit.Err != nil:
		return "failed: " + i.Exit.Err.Error()
	}
	return "exited with code " + strconv.Itoa(i.Exit.Code)
}

// ExitCode returns the command's exit status, and false while it runs or
// when it did not exit by itself (killed, ended by a signal, not waited
// for).
func (i Info) ExitCode() (int, bool) {
	if i.Running || i.Killed || i.Exit.Signal != "" || i.Exit.Err != nil {
		return 0, false
	}
	return i.Exit.Code, true
}

// Table is a session's background commands. Its methods are safe for
// concurrent use.
type Table struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	// watchers counts the goroutines waiting for commands to end.
	watchers sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	next    int
	entries []*entry
	subs    map[chan struct{}]struct{}
}

// entry is one command of the table.
type entry struct {
	id, line, dir string
	pid           int
	started       time.Time
	stop          context.CancelFunc
	proc          *shell.Process
	out           *output
	// recorded is closed once the end is recorded.
	recorded chan struct{}

	// Guarded by Table.mu.
	ended  time.Time
	exit   shell.Exit
	done   bool
	killed bool
	// cursor is where the model's next read (Read) starts.
	cursor int64
	// reading is held by the Read in progress, so two reads never return
	// the same output twice.
	reading sync.Mutex
}

// New returns an empty table.
func New(opts Options) *Table {
	if opts.RingBytes <= 0 {
		opts.RingBytes = DefaultRingBytes
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	t := &Table{opts: opts, subs: map[chan struct{}]struct{}{}}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t
}

// Start starts c and returns at once. It fails after Close, when
// MaxRunning commands already run, or when the spill file or the shell
// cannot be made.
func (t *Table) Start(c Command) (Info, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return Info{}, ErrClosed
	}
	if n := t.runningLocked(); n >= t.opts.MaxRunning {
		return Info{}, fmt.Errorf("%d background commands are already running, the most allowed: stop one with kill_shell first", n)
	}
	f, err := shell.CreateOutputFile(t.opts.TempDir)
	if err != nil {
		return Info{}, fmt.Errorf("create the output file of a background command: %w", err)
	}
	out := newOutput(f, t.opts.RingBytes)
	ctx, stop := context.WithCancel(t.ctx)
	proc, err := shell.Start(ctx, shell.Command{
		Line: c.Line, Shell: t.opts.Shell, Dir: c.Dir, Env: c.Env, Output: out,
		Grace: t.opts.Grace, Sandbox: c.Sandbox,
	})
	if err != nil {
		stop()
		out.remove()
		return Info{}, err
	}
	t.next++
	e := &entry{id: "bash_" + strconv.Itoa(t.next), line: c.Line, dir: c.Dir, pid: proc.Pid(),
		started: time.Now(), stop: stop, proc: proc, out: out, recorded: make(chan struct{})}
	t.entries = append(t.entries, e)
	t.watchers.Add(1)
	go t.watch(e)
	t.notifyLocked()
	return t.infoLocked(e), nil
}

// watch records e's end.
func (t *Table) watch(e *entry) {
	defer t.watchers.Done()
	exit := e.proc.Wait()
	e.out.close()
	e.stop()
	t.mu.Lock()
	e.done, e.exit, e.ended = true, exit, time.Now()
	t.notifyLocked()
	t.mu.Unlock()
	close(e.recorded)
}

// List describes every command the table started, oldest first, running
// or not.
func (t *Table) List() []Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := make([]Info, len(t.entries))
	for i, e := range t.entries {
		list[i] = t.infoLocked(e)
	}
	return list
}

// Running counts the commands still running.
func (t *Table) Running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runningLocked()
}

func (t *Table) runningLocked() int {
	n := 0
	for _, e := range t.entries {
		if !e.done {
			n++
		}
	}
	return n
}

// Info describes the command id.
func (t *Table) Info(id string) (Info, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, err := t.findLocked(id)
	if err != nil {
		return Info{}, err
	}
	return t.infoLocked(e), nil
}

// Tail returns the last n bytes of id's output held in memory, raw, for a
// front end's view; it does not move the model's read position.
func (t *Table) Tail(id string, n int) ([]byte, error) {
	t.mu.Lock()
	e, err := t.findLocked(id)
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return e.out.tail(n), nil
}

// Kill stops the command id and everything it started (SIGTERM, SIGKILL
// after the grace), and returns once its shell has exited or ctx ends.
// A command that has already ended gives ErrExited.
func (t *Table) Kill(ctx context.Context, id string) (Info, error) {
	t.mu.Lock()
	e, err := t.findLocked(id)
	if err == nil && e.done {
		err = fmt.Errorf("%s %s: %w", id, t.infoLocked(e).Status(), ErrExited)
	}
	if err == nil {
		e.killed = true
	}
	t.mu.Unlock()
	if err != nil {
		return Info{}, err
	}
	e.stop()
	select {
	case <-e.recorded:
	case <-ctx.Done():
		return Info{}, fmt.Errorf("stop %s: %w", id, ctx.Err())
	}
	return t.Info(id)
}

// Close kills every command still running, waits for them to end, and
// removes the spill files. Start fails afterwards; Close may be called
// again.
func (t *Table) Close() {
	t.mu.Lock()
	already := t.closed
	t.closed = true
	for _, e := range t.entries {
		if !e.done {
			e.killed = true
		}
	}
	t.mu.Unlock()
	t.cancel()
	t.watchers.Wait()
	if already {
		return
	}
	t.mu.Lock()
	entries := slices.Clone(t.entries)
	t.mu.Unlock()
	for _, e := range entries {
		e.out.remove()
	}
}

// Subscribe returns a channel that receives a value after each change of
// the table (a command started or ended), holding at most one, and a
// function that stops it. Front ends read List or Running on receipt.
func (t *Table) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	t.mu.Lock()
	t.subs[ch] = struct{}{}
	t.mu.Unlock()
	return ch, func() {
		t.mu.Lock()
		delete(t.subs, ch)
		t.mu.Unlock()
	}
}

func (t *Table) notifyLocked() {
	for ch := range t.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (t *Table) findLocked(id string) (*entry, error) {
	for _, e := range t.entries {
		if e.id == id {
			return e, nil
		}
	}
	return nil, fmt.Errorf("%q: %w", id, ErrUnknown)
}

func (t *Table) infoLocked(e *entry) Info {
	return Info{
		ID: e.id, Command: e.line, Dir: e.dir, Pid: e.pid, Started: e.started, Ended: e.ended,
		Running: !e.done, Exit: e.exit, Killed: e.killed, OutputPath: e.out.path, OutputBytes: e.out.size(),
	}
}
