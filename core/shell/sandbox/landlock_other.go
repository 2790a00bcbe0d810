//go:build !linux

package sandbox

// ABI returns 0: Landlock is Linux's.
func ABI() int { return 0 }

// enter refuses: only Linux re-executes cairn to enter the sandbox.
func enter(request, []string) error { return ErrUnavailable }
