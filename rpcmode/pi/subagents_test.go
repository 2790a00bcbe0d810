package pi_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPiRpcClientSubagents drives cairn with pi 0.87.1's own RpcClient
// through two task calls in one answer (testdata/rpcclient087/subagents.mjs):
// the children's progress as tool_execution_update of each task call with
// the child's events in details, both running at once, both answers to the
// parent, their tokens in get_session_stats, their transcripts linked from
// get_messages. Needs what TestPiRpcClient087 needs.
func TestPiRpcClientSubagents(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing087(t, "node is not installed")
	}
	pkg := filepath.Join(rpcClient087Dir, "node_modules", "@earendil-works", "pi-coding-agent", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		missing087(t, "pi 0.87.1's RpcClient is not installed ("+pkg+" is missing)")
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	build := exec.Command(goTool(), "build", "-o", bin, "github.com/cairn-dev/cairn/cmd/cairn")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build cairn: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "subagents.mjs")
	cmd.Dir = rpcClient087Dir
	cmd.Env = append(os.Environ(), "CAIRN_BIN="+bin, "RPCCLIENT_TARGET=cairn")
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("subagents.mjs failed (%v); the FAIL lines above say which checks", err)
	}
}
