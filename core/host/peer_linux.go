package host

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// samePerson reports whether the process at the other end of c runs as
// this process's user (SO_PEERCRED): the directory's mode already keeps
// others out, this holds even if it were opened.
func samePerson(c *net.UnixConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || credErr != nil {
		return false
	}
	return int(cred.Uid) == os.Getuid()
}
