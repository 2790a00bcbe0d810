package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The Landlock rights behind each Right.
const (
	fsRead  = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	fsWrite = ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSym | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSRefer
	// fsFile are the rights that apply to files, not directories.
	fsFile = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	// fsDevice is what the terminal and the harmless devices allow.
	fsDevice = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// rights returns the Landlock rights of r.
func rights(r Right) landlock.AccessFSSet {
	switch r {
	case ReadTree:
		return fsRead
	case ListDir:
		return ll.AccessFSReadDir
	case WriteTree:
		return fsRead | fsWrite
	case WriteDir:
		return ll.AccessFSReadDir | fsWrite
	}
	return 0
}

// enter sets the sandbox of req up in this process and executes argv.
func enter(req request, argv []string) error {
	if kernelABI() < 1 {
		return fmt.Errorf("%w: this Linux kernel has no Landlock", ErrUnavailable)
	}
	if req.Mount {
		if !ownNamespace() {
			// Mounting here would change every process's view.
			return errors.New("asked to protect the control files outside a mount namespace of its own")
		}
		if err := protect(req.Policy.Protect); err != nil {
			return err
		}
		if err := hide(req.Policy.DenyRead); err != nil {
			return err
		}
	}
	if err := restrict(req.Policy, req.Mount, req.ABI); err != nil {
		return err
	}
	if err := syscall.Exec(argv[0], argv, withEnv(os.Environ(), req.Policy.Env)); err != nil {
		return fmt.Errorf("run %s: %w", argv[0], err)
	}
	return nil
}

// ABI returns the Landlock ABI version of the running kernel, 0 without
// Landlock.
func ABI() int {
	v := kernelABI()
	if c, err := strconv.Atoi(os.Getenv(ABIVar)); err == nil && c >= 1 && c < v {
		return c
	}
	return v
}

// kernelABI is the running kernel's Landlock ABI, 0 without Landlock.
func kernelABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// ABIVar names the variable that makes the sandbox act as on a kernel
// with an older Landlock ABI (CAIRN_LANDLOCK_ABI=4), to see what it holds
// there; it can only lower the ABI in use, never raise it.
const ABIVar = "CAIRN_LANDLOCK_ABI"

// configs are go-landlock's configurations by ABI.
var configs = []landlock.Config{landlock.V1, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5,
	landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// restrict restricts the calling thread to p, for good, and locks the
// calling goroutine to it: the caller executes the program from this
// thread, which the kernel makes the whole process. Restricting one thread
// instead of all (go-landlock's Restrict) saves stopping every thread of
// the runtime for each command.
func restrict(p Policy, hidden bool, abi int) error {
	if abi < 1 {
		abi = kernelABI() // a request that names none
	}
	abi = min(abi, kernelABI(), len(configs)-1)
	cfg := configs[abi].BestEffort()
	// A rule may name only rights the configuration handles (an older
	// ABI's, with ABIVar).
	pathRule := func(access landlock.AccessFSSet, paths ...string) landlock.Rule {
		return landlock.PathAccess(access&cfg.HandledAccessFS, paths...).IgnoreIfMissing()
	}
	rules := []landlock.Rule{pathRule(fsDevice, devices...)}
	grant := p
	if hidden {
		// The denied paths are hidden by mounts (see hide): the trees
		// are granted whole, so what a command creates in them (a new
		// directory in the temporary directory beside a home that holds
		// ~/.ssh) can be read back.
		grant.DenyRead = nil
	}
	for _, g := range grant.Grants(nil) {
		access := rights(g.Right)
		if info, err := os.Stat(g.Path); err == nil && !info.IsDir() {
			// Directory rights on a file are an error.
			access &= fsFile
		}
		rules = append(rules, pathRule(access, g.Path))
	}
	// Connecting to a Unix socket made outside the sandbox (Landlock ABI
	// 9): only the ones the person allows. Sockets the command makes
	// itself stay reachable.
	switch {
	case cfg.HandledAccessFS&ll.AccessFSResolveUnix == 0:
	case p.AllowAllUnixSockets:
		rules = append(rules, pathRule(ll.AccessFSResolveUnix, "/"))
	case len(p.UnixSockets) > 0:
		rules = append(rules, pathRule(ll.AccessFSResolveUnix, p.UnixSockets...))
	}
	switch {
	case p.Network.Open:
		cfg.HandledAccessNet = 0
	case len(p.Network.Allow) > 0:
		for _, port := range p.Network.Ports() {
			rules = append(rules, landlock.ConnectTCP(port))
		}
		// Names in the list must resolve: DNS, where UDP is filtered.
		if abi >= 10 {
			rules = append(rules, landlock.ConnectSendUDP(53))
		}
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("build the rules: %w", err)
	}
	if fd < 0 {
		return fmt.Errorf("%w: Landlock refused the rules", ErrUnavailable)
	}
	defer syscall.Close(fd)
	runtime.LockOSThread() // for good: see the doc comment
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", errno)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return loadFilter(seccompRules(p, abi))
}

// protect mounts each existing path read-only over itself, in the mount
// namespace the child was started in. Landlock, applied after, forbids
// unmounting them.
func protect(paths []string) error {
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := syscall.Mount(p, p, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("protect %s: %w", p, err)
		}
		if err := readOnly(p); err != nil {
			return fmt.Errorf("protect %s: %w", p, err)
		}
	}
	return nil
}

// readOnly remounts the bind mount at p read-only.
func readOnly(p string) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(p, &st); err != nil {
		return err
	}
	// A remount must keep the flags the original mount has locked.
	flags := uintptr(syscall.MS_BIND | syscall.MS_REMOUNT | syscall.MS_RDONLY)
	for _, f := range [][2]int64{
		{0x2, syscall.MS_NOSUID}, {0x4, syscall.MS_NODEV}, {0x8, syscall.MS_NOEXEC},
		{0x400, syscall.MS_NOATIME}, {0x800, syscall.MS_NODIRATIME}, {0x1000, syscall.MS_RELATIME},
	} {
		if st.Flags&f[0] != 0 {
			flags |= uintptr(f[1])
		}
	}
	if err := syscall.Mount("", p, "", flags, ""); err != nil {
		return fmt.Errorf("read-only: %w", err)
	}
	return nil
}

// hide covers each existing denied path, in the mount namespace the child
// was started in: a directory with an empty read-only file system, a file
// with /dev/null, read-only. Landlock, applied after, forbids unmounting
// them.
func hide(paths []string) error {
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if info.IsDir() {
			if err := syscall.Mount("cairn-denied", p, "tmpfs", syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, "size=4k,mode=0555"); err != nil {
				return fmt.Errorf("hide %s: %w", p, err)
			}
			continue
		}
		if err := syscall.Mount("/dev/null", p, "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide %s: %w", p, err)
		}
		if err := readOnly(p); err != nil {
			return fmt.Errorf("hide %s: %w", p, err)
		}
	}
	return nil
}

// ownNamespace reports whether this process runs in a user namespace
// other than the initial one, whose ID map covers every ID: the parent
// starts the child in one of its own, with a mount namespace, when it asks
// for the control files to be protected.
func ownNamespace() bool {
	m, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return false
	}
	f := strings.Fields(string(m))
	return !(len(f) == 3 && f[0] == "0" && f[1] == "0" && f[2] == "4294967295")
}

// errNoUserNS is why control files are not protected.
var errNoUserNS = errors.New("user namespaces are not available, so the project's control files (.cairn, AGENTS.md, ...) stay writable in the sandbox")
