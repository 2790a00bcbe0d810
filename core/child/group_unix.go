//go:build unix

package child

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in a process group of its own, so stopping it stops
// whatever it started.
func OwnGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// KillGroup kills cmd's process group.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
