package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
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
