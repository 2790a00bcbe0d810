package approval

import (
	"context"
	"testing"
)

// TestTurnGrant: a skill's grant covers what it names for the gate's own
// calls until cleared, never a subagent's call, and never what the mode
// protects regardless (a protected file).
func TestTurnGrant(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g := openGate(t, Config{Dir: dir, ProtectedDirs: []string{dir + "/.secret"}})
	if err := g.GrantTurn("skill commit", []Rule{{Tool: "bash", Command: "git add"}, {Tool: "edit", Path: "."}}); err != nil {
		t.Fatal(err)
	}
	ui := newFakeUI(pick(OptionDeny), pick(OptionDeny), pick(OptionDeny), pick(OptionDeny))
	if d := g.Check(ctx, bashTool, bashCall("git add -A"), ui); !d.Allow || d.By != ByRule || d.Reason != "allowed by skill commit for this prompt" {
		t.Errorf("granted command: %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall("src/a.go"), ui); !d.Allow || d.By != ByRule {
		t.Errorf("granted edit: %+v", d)
	}
	if ui.asked() != 0 {
		t.Fatalf("asked %d times for granted calls", ui.asked())
	}
	if d := g.Check(ctx, bashTool, bashCall("git push"), ui); d.Allow || d.By != ByPerson {
		t.Errorf("command outside the grant: %+v", d)
	}
	if d := g.Check(WithoutTurnGrant(ctx), bashTool, bashCall("git add -A"), ui); d.Allow || d.By != ByPerson {
		t.Errorf("a subagent's call used the grant: %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall(".secret/key"), ui); d.Allow {
		t.Errorf("grant covered a protected file: %+v", d)
	}
	g.ClearTurn()
	if d := g.Check(ctx, bashTool, bashCall("git add -A"), ui); d.Allow || d.By != ByPerson {
		t.Errorf("grant outlived ClearTurn: %+v", d)
	}
	if err := g.GrantTurn("skill bad", []Rule{{Tool: "bash", Command: "echo 'open"}}); err == nil {
		t.Error("a rule that does not compile was granted")
	}
}
