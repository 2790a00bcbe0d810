package shell

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/cairn-dev/cairn/core/child"
)

// ReaperArg is the hidden first argument that makes cairn's executable a
// command's reaper: `cairn __shell-reaper <cairn's pid> -- shell -c line`.
const ReaperArg = "__shell-reaper"

// exitReaperSetup is the exit status of a reaper started wrongly; it runs
// nothing.
const exitReaperSetup = 125

// killAllSignal is what asks a reaper to kill everything the command
// started at once: cairn sends it to stop a command for good, and the
// kernel sends it when cairn dies (the reaper's parent-death signal). It
// must be a signal the reaper can catch, so not SIGKILL.
const killAllSignal = syscall.SIGUSR2

// reaperCleanupLimit bounds how long a reaper waits for what it killed to
// be gone (a process stuck in the kernel cannot die at once).
const reaperCleanupLimit = 5 * time.Second

// reaperReady says this program handles ReaperArg (it called RunIfReaper),
// so commands may be started through a reaper.
var reaperReady atomic.Bool

// RunIfReaper makes this process a command's reaper when it was started as
// one (its first argument is ReaperArg): it runs the command and exits
// with its status, never returning. Otherwise it returns at once, and from
// then on Start runs every command under a reaper. Every program that
// starts commands calls it first thing in main (tests, in TestMain);
// without the call, commands run without one (see the package doc).
func RunIfReaper() {
	if len(os.Args) < 2 || os.Args[1] != ReaperArg {
		reaperReady.Store(true)
		return
	}
	os.Exit(runReaper(os.Args[2:]))
}

// useReaper changes cmd, not yet started, to run under a reaper when this
// program can start one, and reports whether it did. The reaper takes the
// place of the shell as cairn's child, in the shell's session and process
// group; the parent-death signal is set by the caller (dieWithParent).
func useReaper(cmd *exec.Cmd) bool {
	if !reaperReady.Load() || cmd.Err != nil {
		return false
	}
	self, err := child.Executable()
	if err != nil {
		return false
	}
	cmd.Args = append([]string{self, ReaperArg, strconv.Itoa(os.Getpid()), "--", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = self
	return true
}

// UnderReaper changes cmd, not yet started and not started by Start (a
// program given the real terminal, in cairn's own process group), to run
// under a reaper where this program can start one, so that nothing it
// starts outlives it; it reports whether it did. The reaper gets no
// parent-death signal: the thread that starts cmd is not cairn's to keep.
func UnderReaper(cmd *exec.Cmd) bool { return useReaper(cmd) }

// runReaper is the reaper: `<cairn's pid> -- program args...`. It becomes
// the child subreaper of everything it starts (PR_SET_CHILD_SUBREAPER):
// whatever the command leaves behind, even in a session of its own
// (setsid, nohup, a daemon's double fork), is re-parented to it once its
// parent goes. When the program exits, or cairn asks (killAllSignal), or
// cairn dies (the same signal, as the parent-death signal), it kills every
// process under it and exits as the program did.
func runReaper(args []string) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "cairn: usage: "+ReaperArg+" <pid> -- program [args...]")
		return exitReaperSetup
	}
	parent, err := strconv.Atoi(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cairn: "+ReaperArg+": bad pid "+args[0])
		return exitReaperSetup
	}
	signals := make(chan os.Signal, 16)
	// Caught, never ignored: the program starts with them at their
	// defaults. The terminal's keys reach the program's group directly.
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, killAllSignal)
	if err := setChildSubreaper(); err != nil {
		fmt.Fprintf(os.Stderr, "cairn: %s: %v\n", ReaperArg, err)
		return exitReaperSetup
	}
	if os.Getppid() != parent {
		// cairn died before the signal could be caught: run nothing.
		return exitReaperSetup
	}
	argv := args[2:]
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "cairn: run %s: %v\n", argv[0], err)
		return 127
	}
	reaped := make(chan reapedChild, 16)
	go waitChildren(reaped)

	var status syscall.WaitStatus
	for running := true; running; {
		select {
		case r := <-reaped:
			if r.pid == pid {
				status, running = r.status, false
			}
		case sig := <-signals:
			switch sig {
			case killAllSignal:
				killChildren()
			case syscall.SIGTERM, syscall.SIGHUP:
				// cairn signals the command's process group; what left the
				// group gets the signal from here.
				relay(sig.(syscall.Signal))
			}
		}
	}
	killAll(reaped)
	return exitAs(status)
}

// reapedChild is a child the reaper has waited for.
type reapedChild struct {
	pid    int
	status syscall.WaitStatus
}

// waitChildren waits for every child of the process, the program and the
// processes re-parented to it, sending each on reaped; it closes reaped when
// none is left. It is the process's only waiter.
func waitChildren(reaped chan<- reapedChild) {
	defer close(reaped)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return
		}
		reaped <- reapedChild{pid, ws}
	}
}

// killAll kills every process under the reaper, its children first: the
// children of a killed one are re-parented to the reaper and killed in turn,
// until there are none (reaped closes) or reaperCleanupLimit passes.
func killAll(reaped <-chan reapedChild) {
	if !hasChildren() {
		// The usual end: nothing was left behind, and nothing is read.
		return
	}
	limit := time.NewTimer(reaperCleanupLimit)
	defer limit.Stop()
	for {
		killChildren()
		select {
		case _, ok := <-reaped:
			if !ok {
				return
			}
		case <-limit.C:
			fmt.Fprintf(os.Stderr, "cairn: processes the command started did not end within %v\n", reaperCleanupLimit)
			return
		}
	}
}

// hasChildren reports whether the process has a child, running or ended
// and not yet waited for, without waiting for it.
func hasChildren() bool {
	const pAll, wExited, wNoHang, wNoWait = 0, 4, 1, 0x1000000
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])), wExited|wNoHang|wNoWait, 0, 0)
		if errno != syscall.EINTR {
			return errno != syscall.ECHILD
		}
	}
}

// killChildren sends SIGKILL to every child of the process.
func killChildren() {
	for _, pid := range children(os.Getpid()) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// relay sends sig to every process under the reaper that is not in its
// process group.
func relay(sig syscall.Signal) {
	own := syscall.Getpgrp()
	for _, pid := range descendants(os.Getpid()) {
		if g, err := syscall.Getpgid(pid); err == nil && g != own {
			_ = syscall.Kill(pid, sig)
		}
	}
}

// children returns the children of pid, as the kernel lists them per
// thread (/proc/<pid>/task/<tid>/children).
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, _ := os.ReadDir(dir)
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range splitFields(data) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// descendants returns every process under pid.
func descendants(pid int) []int {
	var out []int
	queue := children(pid)
	for len(queue) > 0 && len(out) < 1<<16 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, p)
		queue = append(queue, children(p)...)
	}
	return out
}

// splitFields splits a /proc list of numbers at spaces and newlines.
func splitFields(data []byte) []string {
	var out []string
	start := -1
	for i, b := range data {
		if b == ' ' || b == '\n' {
			if start >= 0 {
				out = append(out, string(data[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(data[start:]))
	}
	return out
}

// exitAs ends the reaper as the program ended: with its exit status, or by
// the signal that killed it where the signal's default action can be had
// again (others give 128 plus the signal's number, as shells report them).
func exitAs(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	sig := ws.Signal()
	switch sig {
	case syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		// The kernel ends the process as the signal is sent; should it
		// not, the status below says the same to a shell.
		time.Sleep(time.Second)
	}
	return 128 + int(sig)
}

// setChildSubreaper makes the process the subreaper of its descendants.
func setChildSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("become the subreaper of the command: %w", errno)
	}
	return nil
}
