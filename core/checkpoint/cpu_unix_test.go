//go:build unix

package checkpoint

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used, so a
// benchmark can report its cost apart from waiting for a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
