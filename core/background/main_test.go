//go:build unix

package background

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

const waitLimit = 10 * time.Second

// cairnEnv makes the test binary stand in for cairn (see TestMain): it
// starts cairnLine in a table, copies the command's output to stdout, and
// waits to be killed.
const cairnEnv = "CAIRN_BACKGROUND_TEST_CAIRN"

// cairnLine prints the pids of a grandchild in the background of the
// command, of a grandchild in its foreground, and of its shell; all would
// run for a long time.
const cairnLine = `sleep 1000 & echo "pid $!"; echo "pid $$"; sh -c 'echo "pid $$"; exec sleep 1000'`

// TestMain fails the tests if a goroutine outlives them.
func TestMain(m *testing.M) {
	shell.RunIfReaper()
	if os.Getenv(cairnEnv) != "" {
		standInForCairn()
	}
	goleak.VerifyTestMain(m)
}

func standInForCairn() {
	tb := New(Options{})
	info, err := tb.Start(Command{Line: cairnLine})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for {
		out, err := tb.Tail(info.ID, 4096)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if strings.Count(string(out), "pid ") == 3 {
			os.Stdout.Write(out)
			break
		}
		<-tb.entries[0].out.wait()
	}
	select {} // until killed
}

// kill -9 of cairn takes every background command with it: the shell, what
// it started in the background and what runs in its foreground.
func TestBackgroundDiesWithCairn(t *testing.T) {
	cairn := exec.Command(os.Args[0], "-test.run=^$")
	cairn.Env = append(os.Environ(), cairnEnv+"=1")
	cairn.Stderr = os.Stderr
	stdout, err := cairn.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cairn.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cairn.Process.Kill()
		_ = cairn.Wait()
	}()
	pidc := make(chan []int, 1)
	go func() {
		var pids []int
		sc := bufio.NewScanner(stdout)
		for len(pids) < 3 && sc.Scan() {
			if pid, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "pid ")); err == nil {
				pids = append(pids, pid)
			}
		}
		pidc <- pids
	}()
	var pids []int
	select {
	case pids = <-pidc:
	case <-time.After(waitLimit):
		t.Fatalf("the stand-in for cairn printed no pids within %v", waitLimit)
	}
	if len(pids) != 3 {
		t.Fatalf("the stand-in for cairn printed pids %v, want 3", pids)
	}
	for _, pid := range pids {
		if shelltest.Gone(pid) {
			t.Fatalf("pid %d is gone before cairn was killed", pid)
		}
		defer syscall.Kill(pid, syscall.SIGKILL) // should the test fail
	}
	if err := cairn.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cairn.Wait()
	shelltest.WaitGone(t, waitLimit, pids...)
}
