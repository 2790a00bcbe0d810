//go:build unix && !linux

package shell

import "syscall"

// dieWithParent does nothing where there is no parent-death signal; the
// guard (startGuard) still stops the group when cairn dies.
func dieWithParent(*syscall.SysProcAttr, bool) {}
