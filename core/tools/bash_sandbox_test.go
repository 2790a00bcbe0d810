//go:build linux

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// sandboxedBash returns a bash tool whose commands run sandboxed in a new
// project, and a directory outside everything it may write.
func sandboxedBash(t *testing.T) (*Bash, string) {
	t.Helper()
	sandboxtest.Require(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	project, outside, tmp := filepath.Join(root, "project"), filepath.Join(root, "outside"), filepath.Join(root, "tmp")
	for _, d := range []string{project, outside, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := sandbox.Config{Enabled: true}.Policy(sandbox.Place{Project: project, TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	return &Bash{Dir: project, Sandbox: &p}, outside
}

// A sandboxed bash call that writes outside the project fails, and the
// result says what the sandbox blocked and what it allows; inside the
// project the same runs. The model is told about the sandbox.
func TestBashSandboxed(t *testing.T) {
	b, outside := sandboxedBash(t)
	res := run(t, b, map[string]any{"command": "touch " + outside + "/x"})
	text := res.Content[0].Text
	if !res.IsError || !strings.Contains(text, "blocked by the sandbox: write to "+outside+"/x (allowed: project, ") {
		t.Errorf("write outside: error %v, %q", res.IsError, text)
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
		t.Error("the command wrote outside the project")
	}
	if res := run(t, b, map[string]any{"command": "touch inside && ls"}); res.IsError || !strings.Contains(res.Content[0].Text, "inside") {
		t.Errorf("write inside: %+v", res)
	}
	if use := b.SandboxUse(core.ToolCall{Arguments: []byte(`{"command":"ls"}`)}); use != core.Sandboxed {
		t.Errorf("SandboxUse = %v", use)
	}
	if use := b.SandboxUse(core.ToolCall{Arguments: []byte(`{"command":"ls","dangerouslyDisableSandbox":"yes"}`)}); use != core.LeavesSandbox {
		t.Errorf("unreadable arguments: SandboxUse = %v, want LeavesSandbox (fail closed)", use)
	}
	spec := b.Spec()
	if !strings.Contains(string(spec.Parameters), "dangerouslyDisableSandbox") || !strings.Contains(spec.Description, "sandbox") {
		t.Errorf("spec does not tell the model about the sandbox: %s", spec.Parameters)
	}
	if strings.Contains(string(bashSpec.Parameters), "dangerouslyDisableSandbox") {
		t.Error("the unsandboxed spec offers dangerouslyDisableSandbox")
	}
}

// A call that asks to leave the sandbox (which the gate always asks the
// person about) runs unsandboxed.
func TestBashLeavesSandbox(t *testing.T) {
	b, outside := sandboxedBash(t)
	args := map[string]any{"command": "touch " + outside + "/x", "dangerouslyDisableSandbox": true}
	if use := b.SandboxUse(core.ToolCall{Arguments: mustJSON(args)}); use != core.LeavesSandbox {
		t.Errorf("SandboxUse = %v", use)
	}
	if res := run(t, b, args); res.IsError {
		t.Fatalf("unsandboxed: %s", res.Content[0].Text)
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err != nil {
		t.Error("the unsandboxed command did not run")
	}
}

// A background command runs in the sandbox as the same call would in the
// foreground: the gate lets both run unasked in auto_edit on that ground.
func TestBashBackgroundIsSandboxedToo(t *testing.T) {
	b, outside := sandboxedBash(t)
	table := background.New(background.Options{})
	t.Cleanup(table.Close)
	b.Background = table
	if !strings.Contains(string(b.Spec().Parameters), "run_in_background") || !strings.Contains(string(b.Spec().Parameters), "dangerouslyDisableSandbox") {
		t.Fatalf("spec lacks a parameter: %s", b.Spec().Parameters)
	}
	res := run(t, b, map[string]any{"command": "touch " + outside + "/bg; echo done", "run_in_background": true})
	if res.IsError {
		t.Fatalf("start: %+v", res)
	}
	changed, stop := table.Subscribe()
	defer stop()
	for table.Running() > 0 {
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatal("the background command did not end within 10s")
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "bg")); err == nil {
		t.Error("a background command wrote outside the project")
	}
}
