package approval

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestPlanTextsAreRecognised holds the texts plan mode writes for the
// model to the readers front ends show their own words by: a refusal of
// each kind, and an accepted plan with its mode.
func TestPlanTextsAreRecognised(t *testing.T) {
	g := planGate(t, ModeDefault)
	for _, tc := range []struct {
		tool core.Tool
		call core.ToolCall
	}{
		{fakeTool{"write", core.CategoryEdit}, call("write", map[string]string{"path": "a.go", "content": "x"})},
		{bashTool, bashCall("rm -rf src")},
		{mcpTool, call("github_search", nil)},
	} {
		d := g.Check(context.Background(), tc.tool, tc.call, newFakeUI())
		if !IsPlanRefusal(d.DenialText()) {
			t.Errorf("%s: %q is not recognised as plan mode's refusal", tc.tool.Spec().Name, d.DenialText())
		}
	}
	if IsPlanRefusal(DeniedText("no")) {
		t.Error("a person's denial taken for plan mode's")
	}
	tool := g.ExitPlanTool()
	if d := g.Check(context.Background(), tool, exitCall("c1", "1. Edit"), newFakeUI(pick(OptionPlanAutoEdit))); !d.Allow {
		t.Fatalf("accept: %+v", d)
	}
	res, err := tool.Execute(context.Background(), exitCall("c1", "1. Edit"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if mode, ok := AcceptedPlanMode(res.Content[0].Text); !ok || mode != string(ModeAutoEdit) {
		t.Errorf("AcceptedPlanMode(%q) = %q, %v", res.Content[0].Text, mode, ok)
	}
	if _, ok := AcceptedPlanMode("The plan was not accepted, so cairn is still in plan mode."); ok {
		t.Error("a refused plan read as accepted")
	}
}

func FuzzAcceptedPlanMode(f *testing.F) {
	f.Add("The user accepted the plan. cairn has left plan mode and is now in auto_edit mode: x")
	f.Add("cairn is in plan mode, where nothing")
	f.Fuzz(func(t *testing.T, s string) {
		if mode, ok := AcceptedPlanMode(s); ok && mode == "" {
			t.Errorf("%q: accepted with no mode", s)
		}
		_ = IsPlanRefusal(s)
	})
}
