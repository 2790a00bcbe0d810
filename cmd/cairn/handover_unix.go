//go:build headless && unix

package main

import "syscall"

// replaceProcess runs path in this process's place; it returns only on
// failure.
func replaceProcess(path string, argv, env []string) error {
	return syscall.Exec(path, argv, env)
}
