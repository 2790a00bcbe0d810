package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// A stopped command's reaper is asked again to kill everything every
// reaperKillAgain until it exits, reaperKillTries times at most, after
// which its whole group gets SIGKILL.
const (
	reaperKillAgain = 20 * time.Millisecond
	reaperKillTries = 500
)

// pipeGrace is how long output is still read after the shell exits while a
// background process holds the output pipe open.
const pipeGrace = 100 * time.Millisecond

// Command is a command line to run and how.
type Command struct {
	// Line is the command line, run as `Shell -c Line`.
	Line string
	// Shell is the shell to run; empty means Path("").
	Shell string
	// Dir is the working directory; empty means the process's.
	Dir string
	// Env is the environment; nil means DefaultEnv, cairn's own without
	// its secrets. It is never cairn's whole environment unasked.
	Env []string
	// Output receives stdout and stderr, merged; nil discards them. Stdin
	// is empty. Output is not used with a Terminal.
	Output io.Writer
	// Stderr, when set, receives stderr apart from Output (a hook's
	// stdout is its answer, its stderr a message). Not with a Terminal.
	Stderr io.Writer
	// Stdin, when set, is read as the command's standard input instead of
	// an empty one. Not with a Terminal.
	Stdin io.Reader
	// Terminal, when set, is the terminal side of a pseudo-terminal: it
	// becomes the command's stdin, stdout, stderr and controlling terminal.
	// The caller owns it and closes it once Start has returned.
	Terminal *os.File
	// Timeout stops the command once it has run this long; zero means no
	// limit.
	Timeout time.Duration
	// Grace is how long the process group has to end between the stop
	// signals and SIGKILL; zero kills at once.
	Grace time.Duration
	// Sandbox, when set, runs the command in the OS sandbox with this
	// policy (see package sandbox); Start fails, wrapping
	// sandbox.ErrUnavailable, where the system cannot enforce it.
	Sandbox *sandbox.Policy
}

// Exit is how a command ended.
type Exit struct {
	// Code is the shell's exit status, or -1 when a signal ended it or it
	// could not be waited for.
	Code int
	// Signal names the signal that ended the shell ("killed"), or "".
	Signal string
	// Cancelled says the command was stopped because its context ended.
	Cancelled bool
	// TimedOut says the command was stopped because its Timeout passed.
	TimedOut bool
	// Err says why the shell could not be waited for; an exit status other
	// than zero is not an error.
	Err error
}

// Process is a command started by Start. Its methods are safe for
// concurrent use.
type Process struct {
	cmd      *exec.Cmd
	terminal bool
	reaper   bool        // cmd is the command's reaper (see RunIfReaper)
	exited   atomic.Bool // cmd has been waited for
	// killTries counts the kill requests repeated to a reaper.
	killTries atomic.Int32
	guard     *guard // kills the group if cairn dies first; nil if none
	done      chan struct{}
	exit      Exit // set before done is closed
}

// Start starts c in a session and process group of its own and watches it
// until the shell exits: when ctx ends or c.Timeout passes, it stops the
// whole group (see the package doc). It fails when ctx has already ended or
// the shell cannot be started.
func Start(ctx context.Context, c Command) (*Process, error) {
	path := Path(c.Shell)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	cmd := exec.Command(path, "-c", c.Line)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	if cmd.Env == nil {
		cmd.Env = DefaultEnv()
	}
	if c.Terminal != nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Terminal, c.Terminal, c.Terminal
	} else {
		cmd.Stdout, cmd.Stderr = c.Output, c.Output
		if c.Stderr != nil {
			cmd.Stderr = c.Stderr
		}
		cmd.Stdin = c.Stdin
		cmd.WaitDelay = pipeGrace
	}
	// The reaper goes in first, so that a sandboxed command's child
	// restricts itself and then becomes the reaper: one process, not two.
	reaper := useReaper(cmd)
	if err := startGroup(cmd, c.Terminal != nil, reaper); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	if c.Sandbox != nil {
		if err := sandbox.Wrap(cmd, *c.Sandbox); err != nil {
			return nil, fmt.Errorf("start %s: %w", path, err)
		}
	}
	var g *guard
	if !reaper {
		// A reaper kills everything under it when cairn dies; the guard
		// would kill the reaper first.
		g = startGuard()
	}
	waited, err := startLocked(cmd)
	if err != nil {
		g.drop()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	g.arm(cmd.Process.Pid)
	p := &Process{cmd: cmd, terminal: c.Terminal != nil, reaper: reaper, done: make(chan struct{}), guard: g}
	go p.supervise(ctx, c, waited)
	return p, nil
}

// startLocked starts cmd from a goroutine locked to its OS thread and waits
// for it there, so the thread that forked the shell lives exactly as long as
// the shell: Linux sends the parent-death signal when that thread exits,
// and the Go runtime ends a thread only when a goroutine locked to it exits.
func startLocked(cmd *exec.Cmd) (<-chan error, error) {
	started := make(chan error, 1)
	waited := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		waited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return waited, nil
}

// Done is closed when the shell has exited (and, if it was stopped, the
// rest of its group has been killed).
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for Done and returns how the command ended.
func (p *Process) Wait() Exit {
	<-p.done
	return p.exit
}

// supervise waits for the shell to exit, stopping the group when ctx ends
// or the time limit passes, and settles the exit.
func (p *Process) supervise(ctx context.Context, c Command, waited <-chan error) {
	var why Exit
	cancelled := ctx.Done()
	var timedOut, killNow <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		timedOut = t.C
	}
	var killTimer *time.Timer
	// A reaper still starting lets the kill request pass unseen, so it is
	// sent again until the reaper has exited (see killAgain).
	var again *time.Ticker
	var killAgain <-chan time.Time
	defer func() {
		if killTimer != nil {
			killTimer.Stop()
		}
		if again != nil {
			again.Stop()
		}
	}()
	kill := func() {
		p.kill()
		if p.reaper && again == nil {
			again = time.NewTicker(reaperKillAgain)
			killAgain = again.C
		}
	}
	stop := func() {
		cancelled, timedOut = nil, nil
		if c.Grace <= 0 {
			kill()
			return
		}
		p.terminate()
		killTimer = time.NewTimer(c.Grace)
		killNow = killTimer.C
	}
	for {
		select {
		case err := <-waited:
			// The shell is gone; take what it left behind too (a reaper
			// has already, even what left the group).
			p.exited.Store(true)
			p.kill()
			p.guard.release()
			p.exit = exitOf(err, p.cmd.Path)
			p.exit.Cancelled, p.exit.TimedOut = why.Cancelled, why.TimedOut
			close(p.done)
			return
		case <-cancelled:
			why.Cancelled = true
			stop()
		case <-timedOut:
			why.TimedOut = true
			stop()
		case <-killNow:
			killNow = nil
			kill()
		case <-killAgain:
			p.killAgain()
		}
	}
}

// exitOf turns the result of exec.Cmd.Wait into an Exit.
func exitOf(err error, path string) Exit {
	var exitErr *exec.ExitError
	switch {
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
		// ErrWaitDelay: the shell exited well, something it started kept
		// the output open.
		return Exit{}
	case errors.As(err, &exitErr):
		return Exit{Code: exitErr.ExitCode(), Signal: signalName(exitErr)}
	}
	return Exit{Code: -1, Err: fmt.Errorf("wait for %s: %w", path, err)}
}

// Path returns the shell to run: shell itself when it is not empty, else
// /bin/bash, else bash on PATH, else sh.
func Path(shell string) string {
	if shell != "" {
		return shell
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}
