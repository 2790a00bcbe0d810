//go:build !unix

package tools

import "os/exec"

// startGroup does nothing where process groups are not available.
func startGroup(*exec.Cmd) {}

// terminateGroup stops the command's own process.
func terminateGroup(cmd *exec.Cmd) { killGroup(cmd) }

// killGroup stops the command's own process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// signalled reports no signal names where there are no signals.
func signalled(*exec.ExitError) string { return "" }
