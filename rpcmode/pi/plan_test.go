package pi

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// set_approval_mode "plan" enters plan mode (get_state says so); a write
// the model proposes is refused unasked, and the plan it presents is an
// extension_ui_request select whose accepting answer switches the mode.
func TestSetApprovalModePlan(t *testing.T) {
	dir := t.TempDir()
	gate, err := approval.Open(approval.Config{Mode: approval.ModeAuto, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	write := faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "w1", Name: "write", Arguments: []byte(`{"path":"a.txt","content":"x"}`)}}}
	exit := faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "p1", Name: approval.ExitPlanModeTool, Arguments: []byte(`{"plan":"1. Write a.txt"}`)}}}
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}, write, exit, faux.Response{Text: "accepted"}), cwd: dir,
		approver: gate, approvals: gate, tools: []core.Tool{gate.ExitPlanTool()}})
	r.send(map[string]any{"id": "m", "type": "set_approval_mode", "mode": "plan"})
	if resp := r.response("m"); resp.get("success") != true || gate.Mode() != approval.ModePlan {
		t.Fatalf("response = %s, mode = %s", resp.text, gate.Mode())
	}
	r.send(map[string]any{"id": "s", "type": "get_state"})
	if resp := r.response("s"); !strings.Contains(resp.text, `"approvalMode":"plan"`) {
		t.Fatalf("get_state = %s, want approvalMode plan", resp.text)
	}
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "plan it"})
	end := r.wait(map[string]any{"type": "tool_execution_end", "toolCallId": "w1"})
	if end.get("isError") != true || !strings.Contains(end.str("result.content.0.text"), "plan mode") {
		t.Fatalf("write in plan mode: %s", end.text)
	}
	q := r.wait(map[string]any{"type": "extension_ui_request", "method": "select"})
	if !strings.Contains(q.str("title"), "1. Write a.txt") {
		t.Errorf("the plan question does not show the plan: %s", q.text)
	}
	// Entered from auto: going back to it is offered.
	if !sameJSON(q.get("options"), []any{approval.OptionPlanDefault.Label(), approval.OptionPlanAutoEdit.Label(), approval.OptionPlanAuto.Label(), approval.OptionKeepPlanning.Label()}) {
		t.Errorf("options: %s", q.text)
	}
	r.answer(q, map[string]any{"value": approval.OptionPlanAutoEdit.Label()})
	end = r.wait(map[string]any{"type": "tool_execution_end", "toolCallId": "p1"})
	if end.get("isError") != false {
		t.Errorf("exit_plan_mode: %s", end.text)
	}
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "s2", "type": "get_state"})
	if resp := r.response("s2"); !strings.Contains(resp.text, `"approvalMode":"auto_edit"`) {
		t.Fatalf("get_state after accepting = %s, want approvalMode auto_edit", resp.text)
	}
}
