//go:build unix

package regfile

import "syscall"

// openFlags make an open return at once even when the path turned into a
// named pipe between the look and the open.
const openFlags = syscall.O_NONBLOCK
