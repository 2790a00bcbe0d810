package shell

import "syscall"

// dieWithParent has the kernel send the shell SIGKILL when its parent
// thread exits. The signal follows the thread that forked, not the process,
// so Start forks from a goroutine locked to its thread until the shell is
// reaped (startLocked): that thread then ends only with cairn itself,
// however cairn ends, kill -9 included. A command's reaper gets
// killAllSignal instead, which it catches to kill everything under it.
func dieWithParent(attr *syscall.SysProcAttr, reaper bool) {
	attr.Pdeathsig = syscall.SIGKILL
	if reaper {
		attr.Pdeathsig = killAllSignal
	}
}
