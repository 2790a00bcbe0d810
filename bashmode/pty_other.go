//go:build !unix

package bashmode

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// errNoPTY is returned by Start where there are no Unix terminals.
var errNoPTY = errors.New("bash mode needs a Unix pseudo-terminal")

func startPTY(*exec.Cmd, int, int) (*os.File, error) { return nil, errNoPTY }

func setSize(*os.File, int, int) error { return errNoPTY }

func killGroup(int, ...syscall.Signal) {}

var (
	hangupSignals []syscall.Signal
	killSignal    syscall.Signal
)
