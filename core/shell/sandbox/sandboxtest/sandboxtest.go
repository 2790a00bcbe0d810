// Package sandboxtest helps tests that run commands in the OS sandbox.
package sandboxtest

import (
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// Require skips the test, saying why, where this system cannot sandbox
// (a Linux kernel without Landlock), and logs what it enforces otherwise.
// Where the kernel has Landlock the test runs, and fails if the sandbox
// does not work, under CI as anywhere.
func Require(t testing.TB) sandbox.Status {
	t.Helper()
	st := sandbox.Probe()
	if !st.Available {
		t.Skipf("no sandbox on this system: %s", st.Detail)
	}
	t.Logf("sandbox: %s", st.Detail)
	return st
}
