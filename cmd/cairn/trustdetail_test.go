package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/trust"
)

// TestAskTrustSaysWhatWouldRun: the trust question names the commands
// .mcp.json would start, the hook scripts and extensions the settings
// name, and, for a project trusted before, which files changed since.
func TestAskTrustSaysWhatWouldRun(t *testing.T) {
	project := t.TempDir()
	writeTrustFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers":{"gh":{"command":"npx","args":["-y","server-gh"]},"web":{"type":"http","url":"https://mcp.example.com"}}}`)
	writeTrustFile(t, filepath.Join(project, "AGENTS.md"), "rules")
	writeTrustFile(t, filepath.Join(project, "CLAUDE.md"), "old")
	p := trust.Find(project)
	store := &trust.Store{Path: filepath.Join(t.TempDir(), "trusted.json")}
	if err := store.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	writeTrustFile(t, filepath.Join(project, ".cairn", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./scripts/check.sh"}]}]},`+
		`"extensions":{"guard":{"command":"node","args":["guard.js"]}}}`)
	writeTrustFile(t, filepath.Join(project, "AGENTS.md"), "new rules")
	if err := os.Remove(filepath.Join(project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	scan := p.Scan()
	var errb strings.Builder
	askTrust(IOStreams{In: strings.NewReader("n\n"), Err: &errb}, projectTrust{project: p, scan: scan, state: trust.Changed, store: store,
		changes: store.Changes(p, scan)})
	out := errb.String()
	for _, want := range []string{
		"runs MCP server gh: npx -y server-gh",
		"connects to MCP server web: https://mcp.example.com",
		"runs hook PreToolUse: ./scripts/check.sh",
		"runs extension guard: node guard.js",
		"these changed: .cairn/settings.json, AGENTS.md, CLAUDE.md",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the question does not say %q:\n%s", want, out)
		}
	}
}

func writeTrustFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
