//go:build !unix

package shell

import (
	"errors"
	"os/exec"
)

// errNoTerminal is returned for a Command with a Terminal where there are no
// Unix terminals.
var errNoTerminal = errors.New("pseudo-terminals need a Unix system")

// startGroup does nothing where process groups are not available.
func startGroup(_ *exec.Cmd, terminal, _ bool) error {
	if terminal {
		return errNoTerminal
	}
	return nil
}

// terminate stops the shell's own process.
func (p *Process) terminate() { p.kill() }

// kill stops the shell's own process.
func (p *Process) kill() { _ = p.cmd.Process.Kill() }

// signalName reports no signal names where there are no signals.
func signalName(*exec.ExitError) string { return "" }

// killAgain stops the shell's own process.
func (p *Process) killAgain() { p.kill() }
