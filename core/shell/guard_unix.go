//go:build unix

package shell

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// guardScript waits for a line on stdin: "done" when the command ended while
// cairn was alive, nothing at all (end of file, as the kernel closes the
// pipe's only writer) when cairn died first. In that case it kills the
// command's whole process group.
const guardScript = `read -r word; [ "$word" = done ] || kill -s KILL -- "-$1"`

// guard makes a command's process group die with cairn. The parent-death
// signal reaches only the shell (cairn's direct child); what the shell
// started lives on in the group, reparented to init, when cairn is killed
// with SIGKILL and cannot stop it. So each command gets a small sh in a
// session of its own, outside the group and not killed with cairn, reading
// a pipe only cairn can write to.
//
// Its limits: a process that leaves the group (setsid, a daemon, a shell
// with job control making groups of its own) is not in the group and is not
// killed; a guard that is itself killed guards nothing; and without sh on
// the system there is no guard, only the parent-death signal on Linux.
type guard struct {
	cmd *exec.Cmd
	w   *os.File // the pipe's write end, close-on-exec, held by cairn alone
}

// startGuard starts the guard of the group pgid, or returns nil when it
// cannot (the command then runs unguarded, as before guards existed).
func startGuard(pgid int) *guard {
	sh := "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		if sh, err = exec.LookPath("sh"); err != nil {
			return nil
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := exec.Command(sh, "-c", guardScript, "cairn-guard", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	return &guard{cmd: cmd, w: w}
}

// release tells the guard that the command's shell has ended while cairn is
// alive, and reaps it: what the command left running in the background is
// not killed (a stopped command's group has been killed already).
func (g *guard) release() {
	if g == nil {
		return
	}
	_, _ = io.WriteString(g.w, "done\n")
	g.w.Close()
	_ = g.cmd.Wait()
}
