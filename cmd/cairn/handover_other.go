//go:build headless && !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// replaceProcess runs path with this process's standard streams and exits
// with its status (no exec(2) here); it returns only when path cannot
// start.
func replaceProcess(path string, argv, env []string) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
