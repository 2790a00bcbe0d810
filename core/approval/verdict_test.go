package approval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerdictAllowSavesOnlyWhatARuleCould: an interceptor's allow lets
// through what a session rule would, never a protected file, a secret, or
// a tool the person refused.
func TestVerdictAllowSavesOnlyWhatARuleCould(t *testing.T) {
	dir := t.TempDir()
	allow := WithVerdict(context.Background(), Verdict{Kind: VerdictAllow, From: "hook PreToolUse"})
	g := openGate(t, Config{Mode: ModeDefault, Dir: dir, ProtectedDirs: []string{filepath.Join(dir, "keys")}})
	ui := newFakeUI()
	if d := g.Check(allow, bashTool, bashCall("make test"), ui); !d.Allow || d.By != ByInterceptor || d.Reason != "hook PreToolUse" {
		t.Errorf("ordinary command: %+v", d)
	}
	if d := g.Check(allow, readFile, call("read", map[string]string{"path": "/etc/hosts"}), ui); !d.Allow || d.By != ByInterceptor {
		t.Errorf("read outside the project: %+v", d)
	}
	ui = newFakeUI(pick(OptionDeny), pick(OptionDeny), pick(OptionDeny))
	for _, c := range []struct {
		name string
		d    func() Decision
	}{
		{"protected edit", func() Decision {
			return g.Check(allow, writeFile, call("write", map[string]string{"path": "AGENTS.md"}), ui)
		}},
		{"secret read", func() Decision {
			return g.Check(allow, readFile, call("read", map[string]string{"path": "/proc/self/environ"}), ui)
		}},
		{"command writing a protected file", func() Decision { return g.Check(allow, bashTool, bashCall("echo x > .git/hooks/pre-commit"), ui) }},
	} {
		if d := c.d(); d.Allow {
			t.Errorf("%s allowed: %+v", c.name, d)
		}
	}
	if ui.asked() != 3 {
		t.Errorf("asked %d questions, want 3", ui.asked())
	}
	g.DenyTool("bash")
	if d := g.Check(allow, bashTool, bashCall("make test"), newFakeUI()); d.Allow {
		t.Errorf("a tool the person refused: %+v", d)
	}
}

// TestVerdictAskForcesTheQuestion: even yolo asks, and the question says
// who wanted it.
func TestVerdictAskForcesTheQuestion(t *testing.T) {
	ask := WithVerdict(context.Background(), Verdict{Kind: VerdictAsk, From: "hook PreToolUse", Reason: "deploys to production"})
	g := openGate(t, Config{Mode: ModeYolo, Dir: t.TempDir()})
	ui := newFakeUI(pick(OptionAllowOnce), pick(OptionDeny))
	if d := g.Check(ask, bashTool, bashCall("make deploy"), ui); !d.Allow || d.By != ByPerson {
		t.Errorf("answered allow: %+v", d)
	}
	if q := ui.lastSelect(); !strings.Contains(q.Message, "hook PreToolUse asks for this call to be approved: deploys to production.") {
		t.Errorf("question message %q", q.Message)
	}
	if d := g.Check(ask, readFile, call("read", map[string]string{"path": "a.txt"}), ui); d.Allow {
		t.Errorf("a read inside the project, answered deny: %+v", d)
	}
}
