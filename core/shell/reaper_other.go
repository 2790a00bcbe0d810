//go:build !linux

package shell

import (
	"os/exec"
	"syscall"
)

// ReaperArg is the hidden first argument of a command's reaper, which only
// Linux has (see the package doc).
const ReaperArg = "__shell-reaper"

// killAllSignal stops a command for good: without a reaper, SIGKILL to its
// process group.
const killAllSignal = syscall.SIGKILL

// RunIfReaper does nothing where commands run without a reaper: only their
// process group is killed when they end.
func RunIfReaper() {}

// useReaper reports that cmd runs without a reaper.
func useReaper(*exec.Cmd) bool { return false }

// UnderReaper reports that cmd runs without a reaper.
func UnderReaper(*exec.Cmd) bool { return false }
