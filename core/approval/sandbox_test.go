package approval

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// sandboxedBash is a bash tool with a sandbox: a call leaves it when it
// sets dangerouslyDisableSandbox.
type sandboxedBash struct{ fakeTool }

func (sandboxedBash) SandboxUse(call core.ToolCall) core.SandboxUse {
	var a struct {
		Leave bool `json:"dangerouslyDisableSandbox"`
	}
	_ = json.Unmarshal(call.Arguments, &a)
	if a.Leave {
		return core.LeavesSandbox
	}
	return core.Sandboxed
}

func leaveCall(cmd string) core.ToolCall {
	data, _ := json.Marshal(map[string]any{"command": cmd, "dangerouslyDisableSandbox": true})
	return core.ToolCall{ID: "call_1", Name: "bash", Arguments: data}
}

// In auto_edit a sandboxed command runs unasked; one writing a protected
// file still asks, as does every mode but auto_edit and yolo.
func TestGateSandboxedCommands(t *testing.T) {
	tool := sandboxedBash{bashTool}
	g := openGate(t, Config{Mode: ModeAutoEdit, Dir: t.TempDir()})
	if d := g.Check(context.Background(), tool, bashCall("make test"), newFakeUI()); !d.Allow || d.By != BySandbox {
		t.Errorf("auto_edit, sandboxed: %+v", d)
	}
	if d := g.Check(context.Background(), bashTool, bashCall("make test"), newFakeUI(pick(OptionDeny))); d.Allow {
		t.Errorf("auto_edit, no sandbox: %+v, want asked and denied", d)
	}
	ui := newFakeUI(pick(OptionDeny))
	if d := g.Check(context.Background(), tool, bashCall("echo x > AGENTS.md"), ui); d.Allow || ui.asked() != 1 {
		t.Errorf("auto_edit, sandboxed, protected file: %+v, asked %d", d, ui.asked())
	}
	g.SetMode(ModeDefault)
	ui = newFakeUI(pick(OptionDeny))
	if d := g.Check(context.Background(), tool, bashCall("make test"), ui); d.Allow || ui.asked() != 1 {
		t.Errorf("default, sandboxed: %+v, asked %d", d, ui.asked())
	}
}

// A call asking to leave the sandbox asks in every mode, yolo included,
// says so, offers no remembering, and no rule covers it.
func TestGateLeavingTheSandboxAlwaysAsks(t *testing.T) {
	tool := sandboxedBash{bashTool}
	for _, mode := range Modes() {
		g := openGate(t, Config{Mode: mode, Dir: t.TempDir(), RulesFile: t.TempDir() + "/rules.json"})
		g.remember([]Rule{{Tool: "bash", Command: "make"}})
		line := "make test"
		if mode == ModePlan {
			line = "ls" // plan mode refuses make unasked
		}
		ui := newFakeUI(pick(OptionAllowOnce))
		d := g.Check(context.Background(), tool, leaveCall(line), ui)
		if !d.Allow || ui.asked() != 1 {
			t.Fatalf("%s: %+v, asked %d", mode, d, ui.asked())
		}
		q := ui.lastSelect()
		if !strings.Contains(q.Message, "outside the sandbox") {
			t.Errorf("%s: question %q does not say the call leaves the sandbox", mode, q.Message)
		}
		if opts := optionValues(q); slices.Contains(opts, OptionAllowSession) || slices.Contains(opts, OptionAllowAlways) {
			t.Errorf("%s: offers remembering: %v", mode, opts)
		}
	}
}
