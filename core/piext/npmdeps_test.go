package piext

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
)

// npmExamples are the examples that ship a package.json with
// dependencies and its package-lock.json: they load once `npm ci` has
// installed them in their directory (.ci/run does, with --ignore-scripts).
var npmExamples = []string{"custom-provider-anthropic", "gondolin", "sandbox", "with-deps"}

func needsInstall(name string) bool { return slices.Contains(npmExamples, name) }

// checkInstalledDeps checks an example that still needs more than its
// npm dependencies, once they are installed: what it says it needs.
func checkInstalledDeps(t *testing.T, name string, st extension.Status) {
	t.Helper()
	// sandbox and gondolin load; what they need beyond their modules
	// (bubblewrap, QEMU) is asked for when the session starts.
	if st.State != extension.Ready {
		t.Errorf("%s with its node_modules: %v %v", name, st.State, st.Err)
	}
}

// with-deps (after npm install): its parse_duration tool reads a duration
// with the ms package from its own node_modules.
func driveWithDeps(t *testing.T) {
	if !depsInstalled(t, "with-deps") {
		t.Skip("npm install has not been run in with-deps")
	}
	h := startHost(t, "print", "with-deps")
	if got := text(h.tool(t, "parse_duration", `{"duration": "2 days"}`)); got != "2 days = 172800000 milliseconds" {
		t.Errorf("parse_duration: %q", got)
	}
	if r := h.tool(t, "parse_duration", `{"duration": "soon"}`); !r.IsError || !strings.Contains(text(r), `Invalid duration: "soon"`) {
		t.Errorf("soon: %+v", r)
	}
}

// sandbox (after npm install): at session start it sets up
// @anthropic-ai/sandbox-runtime, which on Linux needs bubblewrap, socat
// and ripgrep; where they are missing it says so, as its comments
// describe. With all three it reports the sandbox set up, and its bash
// tool (in place of cairn's) writes in the project only.
func driveSandbox(t *testing.T) {
	if !depsInstalled(t, "sandbox") {
		t.Skip("npm install has not been run in sandbox")
	}
	h := startHost(t, "tui", "sandbox")
	if _, err := h.ic.SessionStart(t.Context(), agent.SessionStartEvent{Source: agent.StartClear}); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the sandbox's report", func(shown []core.Event, _ []string, _ []core.Question) bool {
		n := notices(shown)
		return strings.Contains(n, "Sandbox initialized") || strings.Contains(n, "Sandbox initialization failed")
	})
	h.host.mu.Lock()
	n := notices(h.host.shown)
	h.host.mu.Unlock()
	have := true
	for _, tool := range []string{"bwrap", "socat", "rg"} {
		if _, err := exec.LookPath(tool); err != nil {
			have = false
		}
	}
	if have {
		// Its bash runs in the sandbox: the project is writable, the rest
		// of the file system is not.
		outside := filepath.Join("/var/tmp", "cairn-sandbox-"+filepath.Base(t.TempDir()))
		defer os.Remove(outside)
		got := text(h.tool(t, "bash", `{"command": "echo x > in.txt && echo wrote-in; echo y > `+outside+` && echo wrote-out"}`))
		if !strings.Contains(got, "wrote-in") || strings.Contains(got, "wrote-out") || !strings.Contains(got, "Read-only file system") {
			t.Errorf("sandboxed bash: %s", got)
		}
		if _, err := os.Stat(outside); err == nil {
			t.Errorf("the sandboxed command wrote %s", outside)
		}
	}
	switch {
	case have && !strings.Contains(n, "Sandbox initialized"):
		t.Errorf("with bubblewrap, socat and ripgrep: %s", n)
	case !have && !strings.Contains(n, "Sandbox initialization failed: Sandbox dependencies are not available on this system. Required: ripgrep (rg), bubblewrap (bwrap), and socat."):
		t.Errorf("without bubblewrap, socat or ripgrep: %s", n)
	}
}
