package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// ExecArg is the hidden first argument that makes cairn's executable the
// sandboxed child: `cairn __sandbox-exec <request> -- program args...`.
const ExecArg = "__sandbox-exec"

// ExitSetup is the exit status of a sandboxed child that could not set
// its sandbox up; it prints why on stderr and runs nothing.
const ExitSetup = 125

// request is what the parent tells the sandboxed child, as JSON.
type request struct {
	Policy Policy `json:"policy"`
	// Mount says the child is in a user and mount namespace of its own,
	// where it mounts the control files read-only.
	Mount bool `json:"mount,omitempty"`
	// ABI is the Landlock ABI the parent found (ABI, lowered by ABIVar in
	// cairn's own environment, never the command's): the child uses no
	// newer one.
	ABI int `json:"abi,omitempty"`
}

// RunIfChild makes this process the sandboxed child when it was started as
// one (its first argument is ExecArg): it restricts itself and executes
// the program, never returning; if the sandbox cannot be set up it exits
// with ExitSetup, saying why. Otherwise it returns at once. Every program
// that starts sandboxed commands calls it first thing in main (tests in
// TestMain), before anything else runs.
func RunIfChild() {
	if len(os.Args) < 2 || os.Args[1] != ExecArg {
		return
	}
	err := runChild(os.Args[2:])
	fmt.Fprintf(os.Stderr, "cairn: sandbox: %v\n", err)
	os.Exit(ExitSetup)
}

// runChild parses `<request> -- program args...`, sets up the sandbox and
// executes the program; it returns only on failure.
func runChild(args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return errors.New("usage: " + ExecArg + " <request> -- program [args...]")
	}
	var req request
	if err := json.Unmarshal([]byte(args[0]), &req); err != nil {
		return fmt.Errorf("bad request: %w", err)
	}
	return enter(req, args[2:])
}
