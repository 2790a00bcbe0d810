//go:build linux

package pi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// rpc's bash runs in the sandbox when one is set: a write outside the
// project fails and the output ends with what the sandbox blocked.
func TestExecBashSandboxed(t *testing.T) {
	sandboxtest.Require(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	project := filepath.Join(root, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := sandbox.Config{Enabled: true}.Policy(sandbox.Place{Project: project, TempDir: filepath.Join(root, "tmp")})
	if err != nil {
		t.Fatal(err)
	}
	b := &ExecBash{Dir: project, Sandbox: &p}
	res, err := b.Run(context.Background(), "touch "+root+"/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode == nil || *res.ExitCode == 0 || !strings.Contains(res.Output, "blocked by the sandbox: write to "+root+"/x (allowed: project, ") {
		t.Errorf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
		t.Error("wrote outside the project")
	}
}
