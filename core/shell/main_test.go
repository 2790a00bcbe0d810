package shell

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the tests if a goroutine outlives them: Start's watchers
// must end with the shell.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
