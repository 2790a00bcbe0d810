package shell

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"go.uber.org/goleak"
)

// orphanEnv makes the test binary stand in for cairn (see TestMain): it
// starts orphanLine through Start, its output on stdout, and then waits to
// be killed.
const orphanEnv = "CAIRN_SHELL_TEST_ORPHAN"

// orphanLine prints the pids of two background grandchildren, one in a
// session of its own, and of the shell, then waits on the grandchildren:
// all three would run for a long time.
const orphanLine = `sleep 1000 & echo "pid $!"; setsid sleep 1000 & echo "pid $!"; echo "pid $$"; wait`

// orphanPids is how many pids orphanLine prints.
const orphanPids = 3

// TestMain fails the tests if a goroutine outlives them: Start's watchers
// must end with the shell.
func TestMain(m *testing.M) {
	// The test binary stands in for cairn in sandboxed commands.
	sandbox.RunIfChild()
	RunIfReaper()
	if os.Getenv(orphanEnv) != "" {
		// The pids reach the test only once Start has returned, its guard
		// armed: the test kills this stand-in as soon as it reads them.
		r, w, err := os.Pipe()
		if err == nil {
			_, err = Start(context.Background(), Command{Line: orphanLine, Output: w})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		go io.Copy(os.Stdout, r)
		select {} // until killed
	}
	goleak.VerifyTestMain(m)
}
