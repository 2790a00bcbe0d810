//go:build unix

package pi

import (
	"os/exec"
	"syscall"
)

// startGroup makes cmd the leader of a new session, and so of a new process
// group, so that abort_bash stops everything the command started. With no
// controlling terminal, a program asking for a password fails at once
// instead of hanging.
func startGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup stops every process of cmd's group at once.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
