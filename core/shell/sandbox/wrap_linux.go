package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

var probed = sync.OnceValue(probe)

// Probe says what this system can enforce; it looks once per process.
func Probe() Status { return probed() }

func probe() Status {
	abi := ABI()
	if abi < 1 {
		return Status{Detail: "this Linux kernel has no Landlock (it needs Linux 5.13 or later with Landlock enabled in the lsm= boot option)"}
	}
	st := Status{Available: true, Detail: fmt.Sprintf("Landlock ABI %d", abi)}
	if abi < 4 {
		st.Detail += "; this kernel cannot filter the network (Landlock ABI 4 needed), so the network stays open"
	} else if abi < 10 {
		st.Detail += "; network filtered by TCP port (with the network off, other Internet sockets such as UDP are refused by a seccomp filter; with a list of ports UDP stays open before Landlock ABI 10)"
	}
	if abi < 9 {
		st.Detail += "; Unix sockets refused by a seccomp filter (Landlock ABI 9 tells them apart by path: below it an allowUnixSockets entry allows every one)"
	}
	if userNamespaces() {
		st.ProtectsControlFiles = true
	} else {
		st.Detail += "; " + errNoUserNS.Error()
	}
	return st
}

// userNamespaces reports whether this process can start a child in a user
// and mount namespace of its own, by starting one.
func userNamespaces() bool {
	cmd := exec.Command("/bin/true")
	if _, err := os.Stat(cmd.Path); err != nil {
		self, err := os.Executable()
		if err != nil {
			return false
		}
		// Exits at once with a usage error, but only once it runs.
		cmd = exec.Command(self, ExecArg)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	namespaces(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return false
	}
	_ = cmd.Wait()
	return true
}

// namespaces makes a child start in a user and mount namespace of its own,
// keeping its user and group IDs.
func namespaces(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// helper returns the executable that becomes the sandboxed child: cairn's
// own, except that the full build (cairn-tui, whose libraries take tens of
// milliseconds to initialise) uses the headless cairn installed beside it,
// which starts in a few.
func helper() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if filepath.Base(self) == "cairn-tui" {
		lean := filepath.Join(filepath.Dir(self), "cairn")
		if info, err := os.Stat(lean); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return lean, nil
		}
	}
	return self, nil
}

// Wrap changes cmd, not yet started, to run in the sandbox of p: through
// cairn's own executable (see RunIfChild), which restricts itself and then
// executes cmd's program. It fails, wrapping ErrUnavailable, when the
// system cannot enforce the sandbox.
func Wrap(cmd *exec.Cmd, p Policy) error {
	st := Probe()
	if !st.Available {
		return fmt.Errorf("%w: %s", ErrUnavailable, st.Detail)
	}
	return wrap(cmd, p, st.ProtectsControlFiles)
}

// wrap is Wrap, with the control files protected in a namespace of the
// command's own when mount is set.
func wrap(cmd *exec.Cmd, p Policy, mount bool) error {
	self, err := helper()
	if err != nil {
		return fmt.Errorf("sandbox: find cairn's executable: %w", err)
	}
	if mount {
		p = p.withRepository()
	}
	req, err := json.Marshal(request{Policy: p, Mount: mount, ABI: ABI()})
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	cmd.Args = append([]string{self, ExecArg, string(req), "--", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = self
	if mount {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		namespaces(cmd.SysProcAttr)
	}
	return nil
}
