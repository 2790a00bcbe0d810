//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Probe says there is no sandbox on this system.
func Probe() Status {
	return Status{Detail: "cairn has no sandbox for " + runtime.GOOS}
}

// Wrap fails: there is no sandbox on this system.
func Wrap(*exec.Cmd, Policy) error {
	return fmt.Errorf("%w: %s", ErrUnavailable, Probe().Detail)
}
