package pi_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/rpcmode/pi"
)

// rpcClient087Dir is the Node project in which pi 0.87.1's own RpcClient (npm
// @earendil-works/pi-coding-agent, pinned in its package.json) drives cairn.
const rpcClient087Dir = "testdata/rpcclient087"

// TestPiRpcClient087 is TestPiRpcClient with pi 0.87.1's RpcClient: the same
// 41 checks (testdata/rpcclient087/client.mjs), adapted where 0.87.1's client
// or its documented protocol differ (agent_settled ends a run, delta-only
// message_update, a leading system message, bash_execution_update).
//
// The client needs Node 18 or newer (it imports rpc-client.js alone, not the
// package index, which wants Node 22.19) and its node_modules (npm ci
// --prefix rpcmode/pi/testdata/rpcclient087). Without them it is skipped,
// unless CI is set: then it fails, so CI cannot skip it silently.
//
// With PI_NODE naming a Node 22.19+ binary (../shared/tools/pi-install.sh
// installs one), the subtest "pi" runs the same checks against pi 0.87.1
// itself, its model the repository's fake (FakeLLMFactory), to show that
// the checks describe pi's behaviour; it is skipped otherwise, under CI too.
func TestPiRpcClient087(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing087(t, "node is not installed")
	}
	pkg := filepath.Join(rpcClient087Dir, "node_modules", "@earendil-works", "pi-coding-agent", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		missing087(t, "pi 0.87.1's RpcClient is not installed ("+pkg+" is missing)")
	}

	t.Run("cairn", func(t *testing.T) {
		// Built as TestPiRpcClient builds it: like this test binary, with
		// the race runtime's exit sleep off.
		bin := filepath.Join(t.TempDir(), "cairn")
		args := []string{"build", "-o", bin}
		env := append(os.Environ(), "CAIRN_BIN="+bin, "RPCCLIENT_TARGET=cairn")
		if raceEnabled() {
			args = append(args, "-race")
			env = append(env, "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
		}
		build := exec.Command(goTool(), append(args, "github.com/cairn-dev/cairn/cmd/cairn")...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build cairn: %v\n%s", err, out)
		}
		runClient087(t, node, env)
	})

	t.Run("pi", func(t *testing.T) {
		piNode := os.Getenv("PI_NODE")
		if piNode == "" {
			t.Skip("set PI_NODE to a Node 22.19+ binary to run these checks against pi 0.87.1 itself")
		}
		// pi plays the same scripted model as the Go tests (fakeLLM),
		// made by the test for each check: nothing is read from ../shared.
		env := append(os.Environ(), "RPCCLIENT_TARGET=pi", "RPCCLIENT_FAKELLM="+pi.FakeLLMFactory(t))
		runClient087(t, node, env)
	})
}

// runClient087 runs client.mjs with env and fails t if any check failed.
func runClient087(t *testing.T, node string, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = rpcClient087Dir
	cmd.Env = env
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("pi 0.87.1's RpcClient failed (exit %d after %v); the FAIL lines above say which checks", exit.ExitCode(), time.Since(start).Round(time.Millisecond))
		}
		t.Fatalf("run node client.mjs: %v", err)
	}
}

// missing087 skips the test for a missing prerequisite, or fails it under CI.
func missing087(t *testing.T, why string) {
	t.Helper()
	const how = "install Node.js (18 or newer) and run: npm ci --prefix rpcmode/pi/testdata/rpcclient087"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, so this test may not be skipped: %s", why, how)
	}
	t.Skipf("%s; to run pi 0.87.1's RpcClient against cairn, %s", why, how)
}
