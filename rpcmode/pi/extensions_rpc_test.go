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

// TestPiRpcClient087Extensions drives cairn with the three example
// extensions (docs/examples/extensions) through pi 0.87.1's own
// RpcClient (testdata/rpcclient087/extensions.mjs): the host answers the
// Python command's select and confirm, sees its setStatus, gets the Go
// tool's result, and blocks rm through the Node gate's select, each
// extension_ui_request in pi's shape.
func TestPiRpcClient087Extensions(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing087(t, "node is not installed")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		missing087(t, "python3 is not installed")
	}
	pkg := filepath.Join(rpcClient087Dir, "node_modules", "@earendil-works", "pi-coding-agent", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		missing087(t, "pi 0.87.1's RpcClient is not installed ("+pkg+" is missing)")
	}
	dir := t.TempDir()
	bin, wc := filepath.Join(dir, "cairn"), filepath.Join(dir, "wordcount")
	for target, out := range map[string]string{"github.com/cairn-dev/cairn/cmd/cairn": bin, "github.com/cairn-dev/cairn/docs/examples/extensions/wordcount": wc} {
		if b, err := exec.Command(goTool(), "build", "-o", out, target).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", target, err, b)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "extensions.mjs")
	cmd.Dir = rpcClient087Dir
	cmd.Env = append(os.Environ(), "CAIRN_BIN="+bin, "WORDCOUNT_BIN="+wc)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("pi 0.87.1's RpcClient with the example extensions failed: %v; the FAIL lines above say which checks", err)
	}
}
