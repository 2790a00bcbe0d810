package main

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// Where the system cannot sandbox, cairn says so once and runs commands as
// before, or refuses to start when the settings require the sandbox; the
// flags override the setting.
func TestSandboxPolicyFallback(t *testing.T) {
	defer func(p func() sandbox.Status) { sandboxProbe = p }(sandboxProbe)
	cwd := t.TempDir()
	var warnings []string
	warn := func(w string) { warnings = append(warnings, w) }

	sandboxProbe = func() sandbox.Status { return sandbox.Status{Detail: "this Linux kernel has no Landlock"} }
	sandboxWarned = sync.Once{}
	for range 2 {
		if p, err := sandboxPolicy(sandbox.Config{Enabled: true}, "", cwd, t.TempDir(), warn); p != nil || err != nil {
			t.Fatalf("unavailable: %v, %v", p, err)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "not available (this Linux kernel has no Landlock): commands run unsandboxed") {
		t.Errorf("warnings = %q, want one", warnings)
	}
	_, err := sandboxPolicy(sandbox.Config{Enabled: true, Required: true}, "", cwd, t.TempDir(), warn)
	if err == nil || !strings.Contains(err.Error(), "the sandbox is required") {
		t.Errorf("required: %v", err)
	}
	if p, err := sandboxPolicy(sandbox.Config{Enabled: true, Required: true}, "off", cwd, t.TempDir(), warn); p != nil || err != nil {
		t.Errorf("--no-sandbox: %v, %v", p, err)
	}

	sandboxProbe = func() sandbox.Status { return sandbox.Status{Available: true, ProtectsControlFiles: true} }
	dir := t.TempDir()
	p, err := sandboxPolicy(sandbox.Config{}, "on", cwd, dir, warn)
	if err != nil || p == nil {
		t.Fatalf("--sandbox: %v, %v", p, err)
	}
	if !strings.Contains(strings.Join(p.DenyRead, " "), "models.json") {
		t.Errorf("cairn's key file is readable: %v", p.DenyRead)
	}
	if p, _ := sandboxPolicy(sandbox.Config{}, "", cwd, dir, warn); p != nil {
		t.Error("sandbox on without being enabled")
	}
}

// End to end: with --sandbox in auto_edit, print mode runs the model's
// command unasked (without the sandbox nobody could approve it), the
// sandbox blocks its write outside the project, and the model is told.
func TestSandboxedCommandEndToEnd(t *testing.T) {
	sandboxtest.Require(t)
	script := writeScript(t, `{"responses":[{"content":[{"type":"toolCall","id":"b1","name":"bash","arguments":{"command":"touch /etc/cairn-e2e"}}]},{"text":"done"}]}`)
	vars := map[string]string{"CAIRN_FAUX_SCRIPT": script}
	r := invoke(t, vars, nil, "--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", "--sandbox", "-p", "go")
	if _, err := os.Stat("/etc/cairn-e2e"); err == nil {
		os.Remove("/etc/cairn-e2e")
		t.Fatal("the sandboxed command wrote /etc/cairn-e2e")
	}
	if !strings.Contains(r.stdout, `blocked by the sandbox: write to /etc/cairn-e2e (allowed: project, `) {
		t.Errorf("the tool result does not say what the sandbox blocked:\n%s\n%s", r.stdout, r.stderr)
	}
	r = invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", "-p", "go")
	if !strings.Contains(r.stdout, "needs approval and no one was asked") {
		t.Errorf("without the sandbox the command was not refused:\n%s", r.stdout)
	}
}
