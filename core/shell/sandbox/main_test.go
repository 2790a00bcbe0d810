package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for cairn: started with ExecArg,
// it becomes the sandboxed child.
func TestMain(m *testing.M) {
	RunIfChild()
	os.Exit(m.Run())
}
