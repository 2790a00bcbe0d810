//go:build linux

package shell

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// kill -9 of cairn takes the running command with it: the shell and what
// the shell started in the background, in the command's process group or
// in a session of its own (setsid), none of them a child of cairn.
func TestCommandDiesWithCairn(t *testing.T) {
	cairn := exec.Command(os.Args[0], "-test.run=^$")
	cairn.Env = append(os.Environ(), orphanEnv+"=1")
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

	pidc := make(chan int, orphanPids)
	go func() {
		defer close(pidc)
		sc := bufio.NewScanner(stdout)
		for range orphanPids {
			if !sc.Scan() {
				return
			}
			if pid, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "pid ")); err == nil {
				pidc <- pid
			}
		}
	}()
	var pids []int
	deadline := time.After(waitLimit)
	for len(pids) < orphanPids {
		select {
		case pid, ok := <-pidc:
			if !ok {
				t.Fatalf("the stand-in for cairn printed pids %v and stopped", pids)
			}
			pids = append(pids, pid)
		case <-deadline:
			t.Fatalf("the command printed pids %v within %v, want %d", pids, waitLimit, orphanPids)
		}
	}
	for _, pid := range pids {
		defer syscall.Kill(pid, syscall.SIGKILL) // should the test fail
	}

	if err := cairn.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cairn.Wait()
	shelltest.WaitGone(t, waitLimit, pids...)
}
