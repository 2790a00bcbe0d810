//go:build unix

package shell

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// guardScript reads the command's process group from stdin (none: the
// command did not start), then waits for a line: "done" when the command
// ended while cairn was alive, nothing at all (end of file, as the kernel
// closes the pipe's only writer) when cairn died first. In that case it
// kills the command's whole process group.
const guardScript = `read -r pgid || exit 0; read -r word; [ "$word" = done ] || kill -s KILL -- "-$pgid"`

// guard makes a command's process group die with cairn. The parent-death
// signal reaches only the shell (cairn's direct child); what the shell
// started lives on in the group, reparented to init, when cairn is killed
// with SIGKILL and cannot stop it. So each command gets a small sh in a
// session of its own, outside the group and not killed with cairn, reading
// a pipe only cairn can write to.
//
// Its limits: a process that leaves the group (setsid, a daemon, a shell
// with job control making groups of its own) is not in the group and is not
// killed; a guard that is itself killed guards nothing; a cairn killed in
// the microseconds between starting the command and arming the guard
// leaves the group to the parent-death signal alone; and without sh on the
// system there is no guard, only the parent-death signal on Linux.
type guard struct {
	cmd *exec.Cmd
	w   *os.File // the pipe's write end, close-on-exec, held by cairn alone
}

// startGuard starts a guard, before the command (so it is running by the
// time the command is: started after it, a cairn killed while the guard's
// sh was still starting left the group unguarded), or returns nil when it
// cannot (the command then runs unguarded, as before guards existed). arm
// gives it the command's group; drop ends it when the command did not
// start.
func startGuard() *guard {
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
	cmd := exec.Command(sh, "-c", guardScript, "cairn-guard")
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	return &guard{cmd: cmd, w: w}
}

// arm tells the guard which process group to kill should cairn die.
func (g *guard) arm(pgid int) {
	if g == nil {
		return
	}
	_, _ = io.WriteString(g.w, strconv.Itoa(pgid)+"\n")
}

// drop ends a guard whose command did not start.
func (g *guard) drop() {
	if g == nil {
		return
	}
	g.w.Close()
	_ = g.cmd.Wait()
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
