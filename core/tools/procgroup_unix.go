//go:build unix

package tools

import (
	"os/exec"
	"syscall"
)

// startGroup makes cmd the leader of a new session and so of a new process
// group, so everything it starts can be signalled at once. Being in its own
// session it has no controlling terminal: a program that asks for a password
// on /dev/tty fails at once instead of stopping in the background and
// hanging the call (pi's detached children behave the same).
func startGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// terminateGroup asks every process of cmd's group to stop.
func terminateGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }

// killGroup stops every process of cmd's group at once.
func killGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGKILL) }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		_ = cmd.Process.Signal(sig)
	}
}

// signalled returns the name of the signal that ended a process, or "".
func signalled(err *exec.ExitError) string {
	if ws, ok := err.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
