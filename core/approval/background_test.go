package approval

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func backgroundCall(cmd string) core.ToolCall {
	args, _ := json.Marshal(map[string]any{"command": cmd, "run_in_background": true})
	return core.ToolCall{ID: "bg", Name: "bash", Arguments: args}
}

// A background command is asked about as the same command in the
// foreground, with the same options, and the question says where it runs.
func TestBackgroundCommandIsAskedAsForeground(t *testing.T) {
	fg, bg := newFakeUI(pick(OptionDeny)), newFakeUI(pick(OptionDeny))
	openGate(t, Config{}).Check(context.Background(), bashTool, bashCall("npm run dev"), fg)
	openGate(t, Config{}).Check(context.Background(), bashTool, backgroundCall("npm run dev"), bg)
	if got := bg.lastSelect().Title; got != "Allow bash: npm run dev (in the background)?" {
		t.Errorf("background question %q", got)
	}
	if !slices.Equal(optionValues(fg.lastSelect()), optionValues(bg.lastSelect())) || fg.lastSelect().Message != bg.lastSelect().Message {
		t.Errorf("background options %q %q differ from foreground %q %q",
			optionValues(bg.lastSelect()), bg.lastSelect().Message, optionValues(fg.lastSelect()), fg.lastSelect().Message)
	}
	if !inBackground(call("bash", map[string]string{"command": "x", "run_in_background": "true"})) || inBackground(bashCall("x")) {
		t.Error("inBackground misreads run_in_background")
	}
}

// A rule allowing a command covers it in the background too, and a
// command the mode allows runs unasked wherever it runs.
func TestBackgroundCommandFollowsTheSameRules(t *testing.T) {
	ui := newFakeUI(pick(OptionAllowSession), pick(OptionDeny))
	g := openGate(t, Config{})
	if d := g.Check(context.Background(), bashTool, bashCall("npm run dev"), ui); !d.Allow {
		t.Fatalf("first call: %+v", d)
	}
	if d := g.Check(context.Background(), bashTool, backgroundCall("npm run dev"), ui); !d.Allow || d.By != ByRule {
		t.Errorf("background call after a session rule: %+v", d)
	}
	if d := g.Check(context.Background(), bashTool, backgroundCall("rm -rf build"), ui); d.Allow {
		t.Errorf("a command no rule covers ran in the background unasked: %+v", d)
	}
	g.SetMode(ModeYolo)
	if d := g.Check(context.Background(), bashTool, backgroundCall("rm -rf build"), ui); !d.Allow || d.By != ByMode {
		t.Errorf("yolo background call: %+v", d)
	}
}
