//go:build !unix

package pi

import "os/exec"

// startGroup does nothing where process groups are not available.
func startGroup(*exec.Cmd) {}

// killGroup stops the command's own process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
