//go:build linux

package bashmode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// A person's `!cmd` runs sandboxed in its terminal when a sandbox is set:
// the terminal works (a controlling terminal, its size) and a write
// outside the project fails.
func TestStartSandboxed(t *testing.T) {
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
	r, err := Start(context.Background(), "stty size; tty >/dev/null && echo has-tty; touch "+root+"/x",
		Options{Dir: project, Cols: 77, Rows: 11, Sandbox: &p})
	if err != nil {
		t.Fatal(err)
	}
	res := finish(t, r)
	if !strings.Contains(res.Output, "11 77") || !strings.Contains(res.Output, "has-tty") ||
		!strings.Contains(res.Output, "blocked by the sandbox: write to "+root+"/x (allowed: project, ") {
		t.Errorf("output %q", res.Output)
	}
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
		t.Error("wrote outside the project")
	}
}
