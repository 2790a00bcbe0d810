//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// kill -9 of cairn in rpc mode takes the background commands the model
// started with it: the command's shell, what it started in the background
// and what it runs in the foreground.
func TestBackgroundCommandsDieWithCairn(t *testing.T) {
	dir := t.TempDir()
	pidFile := func(name string) string { return filepath.Join(dir, name+".pid") }
	line := fmt.Sprintf(`echo $$ > %s; sleep 1000 & echo $! > %s; sh -c 'echo $$ > %s; exec sleep 1000'`,
		pidFile("shell"), pidFile("background"), pidFile("foreground"))
	args, _ := json.Marshal(map[string]any{"command": line, "run_in_background": true})
	script, _ := json.Marshal(map[string]any{"responses": []any{
		map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": "c1", "name": "bash", "arguments": json.RawMessage(args)}}},
		map[string]any{"text": "started"},
	}})
	scriptPath := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
		t.Fatal(err)
	}

	cairn := exec.Command(os.Args[0], "--mode", "rpc", "--provider", "faux", "--approval", "yolo", "--no-session")
	cairn.Dir = dir
	cairn.Env = append(os.Environ(), asCairnEnv+"=1", "CAIRN_DIR="+t.TempDir(), "CAIRN_FAUX_SCRIPT="+scriptPath)
	stdin, err := cairn.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cairn.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cairn.Stderr = os.Stderr
	if err := cairn.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cairn.Process.Kill()
		_ = cairn.Wait()
	}()
	if _, err := io.WriteString(stdin, `{"type":"prompt","message":"start it"}`+"\n"); err != nil {
		t.Fatal(err)
	}

	// The call returns at once: the command runs in the background.
	started := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"tool_execution_end"`) {
				started <- strings.Contains(sc.Text(), "Started in the background as bash_1")
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case ok := <-started:
		if !ok {
			t.Fatal("the bash call ended without starting a background command")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bash call did not return within 20s")
	}
	pids := waitPidFiles(t, pidFile("shell"), pidFile("background"), pidFile("foreground"))
	for _, pid := range pids {
		defer syscall.Kill(pid, syscall.SIGKILL) // should the test fail
	}
	if err := cairn.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cairn.Wait()
	shelltest.WaitGone(t, 10*time.Second, pids...)
}

// waitPidFiles waits, bounded, until each file holds a pid of a running
// process. The command writes them with no event to wait on, so this polls.
func waitPidFiles(t *testing.T, paths ...string) []int {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		var pids []int
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && !shelltest.Gone(pid) {
				pids = append(pids, pid)
			}
		}
		if len(pids) == len(paths) {
			return pids
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("the background command wrote %d of %d pid files within 20s", len(pids), len(paths))
		}
	}
}
