//go:build unix

package shell

import (
	"os/exec"
	"syscall"
)

// startGroup makes cmd the leader of a new session, and so of a new process
// group, so everything it starts can be signalled at once. With a terminal,
// that terminal (the command's stdin) becomes the session's controlling
// terminal; without one the session has none. Where the system offers it,
// the shell (or the command's reaper, when reaper is set) is also told
// when cairn dies (see dieWithParent).
func startGroup(cmd *exec.Cmd, terminal, reaper bool) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: terminal, Ctty: 0}
	dieWithParent(cmd.SysProcAttr, reaper)
	return nil
}

// terminate asks every process of the group to stop: SIGTERM, after the
// hangup a closing terminal sends when there is a terminal.
func (p *Process) terminate() {
	if p.terminal {
		p.signal(syscall.SIGHUP)
	}
	p.signal(syscall.SIGTERM)
}

// kill stops every process of the command at once: a reaper still running
// is asked to kill everything under it (SIGKILL would end the reaper first
// and leave what left the group running); otherwise the group gets SIGKILL.
func (p *Process) kill() {
	if p.reaper && !p.exited.Load() {
		if err := p.cmd.Process.Signal(killAllSignal); err == nil {
			return
		}
	}
	p.signal(syscall.SIGKILL)
}

// killAgain repeats a kill request a reaper has not answered by exiting:
// one sent while it was still starting is lost. After reaperKillTries
// requests the group gets SIGKILL, reaper and all.
func (p *Process) killAgain() {
	if p.killTries.Add(1) >= reaperKillTries {
		p.signal(syscall.SIGKILL)
		return
	}
	p.kill()
}

func (p *Process) signal(sig syscall.Signal) {
	if err := syscall.Kill(-p.cmd.Process.Pid, sig); err != nil {
		// The group is gone, or the shell never became its leader.
		_ = p.cmd.Process.Signal(sig)
	}
}

// signalName returns the name of the signal that ended a process, or "".
func signalName(err *exec.ExitError) string {
	if ws, ok := err.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
