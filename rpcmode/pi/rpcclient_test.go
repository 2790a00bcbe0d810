package pi_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// rpcClientDir is the Node project in which pi's own RpcClient (npm
// @mariozechner/pi-coding-agent, pinned in its package.json) drives cairn.
const rpcClientDir = "testdata/rpcclient"

// TestPiRpcClient builds cairn and lets pi's RpcClient drive `cairn --mode
// rpc` through prompt and streaming, a bash tool call, the bash command,
// compaction, abort during a stream, get_state and new_session
// (testdata/rpcclient/client.mjs; the faux provider plays the model).
//
// It needs node and the client's node_modules (npm ci --prefix
// rpcmode/pi/testdata/rpcclient). Without them it is skipped, unless CI is
// set: then it fails, so CI cannot skip it silently.
func TestPiRpcClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed")
	}
	pkg := filepath.Join(rpcClientDir, "node_modules", "@mariozechner", "pi-coding-agent", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		missing(t, "pi's RpcClient is not installed ("+pkg+" is missing)")
	}

	// Built like this test binary (with -race under make test), so the
	// build reuses the packages already compiled for the tests, and a data
	// race in cairn makes it exit 66, which the client reports. The race
	// runtime's 1 s sleep at exit is turned off: RpcClient.stop kills the
	// process 1 s after SIGTERM.
	bin := filepath.Join(t.TempDir(), "cairn")
	args := []string{"build", "-o", bin}
	env := append(os.Environ(), "CAIRN_BIN="+bin)
	if raceEnabled() {
		args = append(args, "-race")
		env = append(env, "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	}
	build := exec.Command(goTool(), append(args, "github.com/cairn-dev/cairn/cmd/cairn")...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build cairn: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = rpcClientDir
	cmd.Env = env
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err = cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("pi's RpcClient against cairn failed (exit %d after %v); the FAIL lines above say which checks", exit.ExitCode(), time.Since(start).Round(time.Millisecond))
		}
		t.Fatalf("run node client.mjs: %v", err)
	}
}

// missing skips the test for a missing prerequisite, or fails it under CI.
func missing(t *testing.T, why string) {
	t.Helper()
	const how = "install Node.js (18 or newer) and run: npm ci --prefix rpcmode/pi/testdata/rpcclient"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, so this test may not be skipped: %s", why, how)
	}
	t.Skipf("%s; to run pi's RpcClient against cairn, %s", why, how)
}

// goTool is the go command that runs this test, or the one on PATH.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

// raceEnabled reports whether this test binary was built with -race.
func raceEnabled() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
