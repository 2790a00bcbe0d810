//go:build !unix

package child

import "os/exec"

// OwnGroup does nothing where there are no process groups.
func OwnGroup(*exec.Cmd) {}

// KillGroup kills cmd's process.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
