package sandbox

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// This file is the sandbox's seccomp filter: what Landlock cannot refuse
// on the running kernel, refused at the system call.
//
//   - Unix sockets (socket(AF_UNIX)), which reach servers outside the
//     sandbox (tmux, screen, docker, dbus, ssh-agent) that act for the
//     command. Landlock refuses connecting to a pathname socket from ABI 9
//     and an abstract one from ABI 6; below ABI 9 the filter refuses
//     creating Unix sockets at all, unless the person allows them
//     (allowUnixSockets), since a system call filter cannot see the path.
//     socketpair(2) stays allowed: its two ends reach nothing outside.
//   - With the network off, every Internet socket but TCP (UDP, ICMP
//     "ping", raw), before Landlock ABI 10 filters UDP. TCP is Landlock's
//     (ABI 4).
//   - io_uring, whose requests (connect, socket, open) bypass both.
//   - System calls of another architecture (32-bit ones on a 64-bit
//     kernel, x32), which a filter written for one could not judge.
//
// It is written with golang.org/x/net/bpf rather than a seccomp library:
// the one the field uses in Go (elastic/go-seccomp-bpf) lets every system
// call of a foreign architecture through, which would let a 32-bit
// program open the sockets this filter exists to refuse.

// seccomp_data's layout (linux/seccomp.h).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on a little-endian machine
	offArg1 = 24
)

// auditArch is the AUDIT_ARCH of this build's architecture, 0 where the
// filter is not built (the sandbox then says so).
var auditArch = map[string]uint32{
	"amd64": unix.AUDIT_ARCH_X86_64,
	"arm64": unix.AUDIT_ARCH_AARCH64,
}[runtime.GOARCH]

// x32Bit marks x32 system calls on x86-64.
const x32Bit = 0x40000000

// filterRules are what one command's filter refuses.
type filterRules struct {
	// Unix refuses creating Unix sockets.
	Unix bool
	// NonTCP refuses Internet sockets other than TCP.
	NonTCP bool
}

// need reports whether there is anything to filter.
func (r filterRules) need() bool { return r.Unix || r.NonTCP }

// seccompRules returns what the filter must refuse for p on a kernel with
// Landlock ABI abi.
func seccompRules(p Policy, abi int) filterRules {
	var r filterRules
	if abi < 9 && !p.AllowAllUnixSockets && len(p.UnixSockets) == 0 {
		r.Unix = true
	}
	if abi < 10 && !p.Network.Open && len(p.Network.Allow) == 0 {
		r.NonTCP = true
	}
	return r
}

// program assembles the filter for r.
func program(r filterRules) ([]bpf.RawInstruction, error) {
	eperm := bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)}
	enosys := bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)}
	allow := bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW}
	// Each check jumps forward over what follows it to a return; the
	// program is laid out in labelled pieces and the jumps resolved after.
	var prog []bpf.Instruction
	var pending []struct {
		at    int
		label string
	}
	labels := map[string]int{}
	jumpTo := func(cond bpf.JumpTest, val uint32, label string) {
		pending = append(pending, struct {
			at    int
			label string
		}{len(prog), label})
		prog = append(prog, bpf.JumpIf{Cond: cond, Val: val})
	}
	mark := func(label string) { labels[label] = len(prog) }

	prog = append(prog, bpf.LoadAbsolute{Off: offArch, Size: 4})
	jumpTo(bpf.JumpNotEqual, auditArch, "enosys")
	prog = append(prog, bpf.LoadAbsolute{Off: offNr, Size: 4})
	if auditArch == unix.AUDIT_ARCH_X86_64 {
		jumpTo(bpf.JumpGreaterOrEqual, x32Bit, "enosys")
	}
	for _, nr := range []uint32{unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER} {
		jumpTo(bpf.JumpEqual, nr, "enosys")
	}
	jumpTo(bpf.JumpEqual, unix.SYS_SOCKET, "socket")
	prog = append(prog, allow)

	mark("socket")
	prog = append(prog, bpf.LoadAbsolute{Off: offArg0, Size: 4})
	if r.Unix {
		jumpTo(bpf.JumpEqual, unix.AF_UNIX, "eperm")
	}
	if r.NonTCP {
		jumpTo(bpf.JumpEqual, unix.AF_INET, "inet")
		jumpTo(bpf.JumpEqual, unix.AF_INET6, "inet")
	}
	prog = append(prog, allow)
	mark("inet")
	prog = append(prog, bpf.LoadAbsolute{Off: offArg1, Size: 4},
		bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: 0xf}) // SOCK_TYPE_MASK
	jumpTo(bpf.JumpNotEqual, unix.SOCK_STREAM, "eperm")
	prog = append(prog, allow)
	mark("eperm")
	prog = append(prog, eperm)
	mark("enosys")
	prog = append(prog, enosys)

	for _, p := range pending {
		target, ok := labels[p.label]
		if !ok {
			return nil, fmt.Errorf("seccomp: no label %s", p.label)
		}
		skip := target - p.at - 1
		if skip < 0 || skip > 255 {
			return nil, fmt.Errorf("seccomp: jump to %s out of range", p.label)
		}
		j := prog[p.at].(bpf.JumpIf)
		j.SkipTrue = uint8(skip)
		prog[p.at] = j
	}
	return bpf.Assemble(prog)
}

// loadFilter installs the filter for r on the calling thread (which then
// executes the command: the filter holds for it and everything it
// starts). PR_SET_NO_NEW_PRIVS must be set already.
func loadFilter(r filterRules) error {
	if !r.need() {
		return nil
	}
	if auditArch == 0 {
		return fmt.Errorf("%w: no seccomp filter for %s", ErrUnavailable, runtime.GOARCH)
	}
	raw, err := program(r)
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, in := range raw {
		filter[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, errno := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	}
	return nil
}
