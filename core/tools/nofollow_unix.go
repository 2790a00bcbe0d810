//go:build unix

package tools

import "syscall"

// openNoFollow makes opening a path whose last component is a symbolic
// link fail.
const openNoFollow = syscall.O_NOFOLLOW
