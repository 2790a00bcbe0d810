package sysprompt

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// The plan-mode section is there exactly when exit_plan_mode is declared,
// which the session does only in plan mode, and also under a custom
// prompt.
func TestPlanSectionFollowsTheTool(t *testing.T) {
	if exitPlanModeTool != approval.ExitPlanModeTool {
		t.Fatalf("exitPlanModeTool %q, approval says %q", exitPlanModeTool, approval.ExitPlanModeTool)
	}
	has := func(opts Options) bool {
		for _, s := range Sections(opts) {
			if s.Name == "plan" {
				return strings.Contains(s.Text, "plan mode") && strings.Contains(s.Text, exitPlanModeTool)
			}
		}
		return false
	}
	planning := []core.ToolSpec{{Name: "read"}, {Name: "bash"}, {Name: exitPlanModeTool}}
	if !has(Options{Tools: planning}) || !has(Options{Tools: planning, Custom: "You are a helper."}) {
		t.Error("no plan section with exit_plan_mode declared")
	}
	if has(Options{Tools: []core.ToolSpec{{Name: "read"}, {Name: "edit"}}}) {
		t.Error("a plan section without exit_plan_mode")
	}
	if !strings.Contains(Build(Options{Tools: planning}), "- exit_plan_mode: Present your plan") {
		t.Error("the tool list does not describe exit_plan_mode")
	}
}
