//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "os"

// isTerminal reports whether f is a character device, the best guess
// where there is no terminal ioctl to ask.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// translateNewlines has nothing to do where terminals have no termios.
func translateNewlines(*os.File) {}
