//go:build !linux

package host

import "net"

// samePerson relies on the directory's mode (0700) where SO_PEERCRED is
// not available.
func samePerson(*net.UnixConn) bool { return true }
