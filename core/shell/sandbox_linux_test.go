package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// A sandboxed command runs through Start like any other: in the sandbox
// (a write outside the project fails), and stopped as a group on timeout,
// the sandbox's re-exec in between changing neither.
func TestStartSandboxed(t *testing.T) {
	sandboxtest.Require(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	project, tmp := filepath.Join(root, "project"), filepath.Join(root, "tmp")
	for _, d := range []string{project, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := sandbox.Config{Enabled: true}.Policy(sandbox.Place{Project: project, TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	proc, err := Start(context.Background(), Command{Line: "touch " + root + "/x; touch ok", Dir: project, Output: &out, Sandbox: &p})
	if err != nil {
		t.Fatal(err)
	}
	exit := proc.Wait()
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil || !strings.Contains(out.String(), "Permission denied") {
		t.Errorf("wrote outside the project: %+v %s", exit, out.String())
	}
	if _, err := os.Stat(filepath.Join(project, "ok")); err != nil {
		t.Errorf("did not write inside the project: %s", out.String())
	}

	proc, err = Start(context.Background(), Command{Line: "sleep 100 & sleep 100", Dir: project, Sandbox: &p, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-proc.Done():
	case <-time.After(waitLimit):
		t.Fatal("the sandboxed command outlived its timeout")
	}
	if exit := proc.Wait(); !exit.TimedOut {
		t.Errorf("exit = %+v, want timed out", exit)
	}
}

// A sandboxed command's leftovers end with it too: the sandboxed child
// becomes the reaper once it has restricted itself.
func TestSandboxedLeftoversEnd(t *testing.T) {
	sandboxtest.Require(t)
	project := t.TempDir()
	p, err := sandbox.Config{Enabled: true}.Policy(sandbox.Place{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	for name, line := range leftoverLines {
		t.Run(name, func(t *testing.T) {
			proc, out := start(t, context.Background(), Command{Line: line, Dir: project, Sandbox: &p})
			exit := wait(t, proc)
			pids := pidsIn(t, out.Tail().Text)
			if len(pids) != 1 || exit.Code != 0 {
				t.Fatalf("exit %+v, output %q: want one pid", exit, out.Tail().Text)
			}
			shelltest.WaitGone(t, waitLimit, pids...)
		})
	}
}
