package approval

import (
	"context"
	"runtime"
	"testing"
)

// Issue 42: an editor's threads of one project are sessions of one
// process; "Always allow" in one of them holds at once in the others that
// keep the same rules file, and only there.
func TestPeersShareSavedRules(t *testing.T) {
	ctx := context.Background()
	dir, other := t.TempDir(), t.TempDir()
	peers := &Peers{}
	file := ProjectRulesFile(dir)
	first := openGate(t, Config{Dir: dir, RulesFile: file, Peers: peers})
	second := openGate(t, Config{Dir: dir, RulesFile: file, Peers: peers})
	elsewhere := openGate(t, Config{Dir: other, RulesFile: ProjectRulesFile(other), Peers: peers})
	alone := openGate(t, Config{Dir: dir, RulesFile: file}) // not a peer: reads the file at its start only

	if d := first.Check(ctx, bashTool, bashCall("make test"), newFakeUI(pick(OptionAllowAlways))); !d.Allow || d.Scope != ScopeAlways {
		t.Fatalf("first: %+v", d)
	}
	ui := newFakeUI(pick(OptionDeny), pick(OptionDeny), pick(OptionDeny))
	if d := second.Check(ctx, bashTool, bashCall("make test"), ui); !d.Allow || d.By != ByRule {
		t.Errorf("the second thread asked again: %+v", d)
	}
	if d := elsewhere.Check(ctx, bashTool, bashCall("make test"), ui); d.Allow {
		t.Errorf("another project's gate took the rule: %+v", d)
	}
	if d := alone.Check(ctx, bashTool, bashCall("make test"), ui); d.Allow {
		t.Errorf("a gate outside the peers took the rule: %+v", d)
	}
	// A gate that is gone is dropped, not kept alive by its peers.
	func() {
		openGate(t, Config{Dir: dir, RulesFile: file, Peers: peers})
	}()
	runtime.GC()
	openGate(t, Config{Dir: dir, RulesFile: file, Peers: peers})
	peers.mu.Lock()
	n := len(peers.gates)
	peers.mu.Unlock()
	if n != 4 {
		t.Errorf("%d gates held, want the 4 alive", n)
	}
	runtime.KeepAlive(first)
	runtime.KeepAlive(second)
	runtime.KeepAlive(elsewhere)
}
