package approval

import (
	"context"
	"testing"
)

// Rules given at Open (the allow rules of the person's Claude Code
// settings) hold for the session as the person's own session rules do.
func TestSessionRulesGivenAtOpen(t *testing.T) {
	dir := t.TempDir()
	g, err := Open(Config{Dir: dir, SessionRules: []Rule{{Tool: "bash", Command: "grep"}, {Tool: "mcp__sequential-thinking__*"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Check(context.Background(), bashTool, bashCall("grep keep victim"), nil); !d.Allow {
		t.Errorf("grep keep victim: %+v", d)
	}
	if d := g.Check(context.Background(), bashTool, bashCall("rm made"), nil); d.Allow {
		t.Errorf("rm made was allowed: %+v", d)
	}
	if _, err := Open(Config{Dir: dir, SessionRules: []Rule{{Tool: "bash", Command: "a | b"}}}); err == nil {
		t.Error("a rule that cannot be compiled was not reported")
	}
}

// Other clients' MCP files are protected like .mcp.json: cairn starts
// what they name.
func TestOtherClientMCPFilesAreProtected(t *testing.T) {
	g, _ := Open(Config{Dir: t.TempDir()})
	for _, p := range []string{".vscode/mcp.json", "sub/.cursor/mcp.json", ".zed/settings.json"} {
		if g.protectedReason(p) == "" {
			t.Errorf("%s is not protected", p)
		}
	}
	if g.protectedReason(".vscode/settings.json") != "" {
		t.Error(".vscode/settings.json is protected")
	}
}
