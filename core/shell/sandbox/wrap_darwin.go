package sandbox

import (
	"fmt"
	"os"
	"os/exec"
)

// sandboxExec is macOS's sandbox launcher.
const sandboxExec = "/usr/bin/sandbox-exec"

// Probe says what this system can enforce: sandbox-exec's profile, which
// denies writes to the control files itself.
func Probe() Status {
	if _, err := os.Stat(sandboxExec); err != nil {
		return Status{Detail: sandboxExec + " is missing"}
	}
	return Status{Available: true, ProtectsControlFiles: true,
		Detail: "macOS sandbox-exec; network filtered by host and port, with hosts as sandbox-exec allows: localhost or *"}
}

// Wrap changes cmd, not yet started, to run under sandbox-exec with the
// profile of p (see Profile). It fails, wrapping ErrUnavailable, when
// sandbox-exec is missing.
func Wrap(cmd *exec.Cmd, p Policy) error {
	if st := Probe(); !st.Available {
		return fmt.Errorf("%w: %s", ErrUnavailable, st.Detail)
	}
	cmd.Args = append([]string{sandboxExec, "-p", Profile(p), cmd.Path}, cmd.Args[1:]...)
	cmd.Path = sandboxExec
	return nil
}
