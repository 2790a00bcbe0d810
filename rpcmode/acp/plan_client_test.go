package acp

import (
	"encoding/json"
	"testing"
)

// TestOfficialClientPlanMode drives a built cairn with the official ACP
// TypeScript SDK through plan mode: plan is a session mode; in it a write
// is refused without a permission request; the plan the model presents is
// a permission request (allow_once goes on in default, allow_always in
// auto_edit, reject_once keeps planning); accepting it announces the new
// mode, and the next turn writes without asking.
func TestOfficialClientPlanMode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	bin := buildCairn(t)
	project := t.TempDir()
	call := func(id, name string, args map[string]any) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}}}
	}
	write := map[string]any{"path": "new.txt", "content": "made\n"}
	script, _ := json.Marshal(map[string]any{"responses": []any{
		call("call_w1", "write", write),
		call("call_p", "exit_plan_mode", map[string]any{"plan": "1. Write new.txt"}),
		map[string]any{"text": "accepted"},
		call("call_w2", "write", write),
		map[string]any{"text": "written"},
	}})
	out := runClientScript(t, node, dir, "plan.mjs", bin, project, script)
	var seen struct {
		Modes         []string `json:"modes"`
		Entered       string   `json:"entered"`
		WriteInPlan   []string `json:"writeInPlan"`
		FileAfterPlan bool     `json:"fileAfterPlan"`
		AskedAbout    []string `json:"askedAbout"`
		PlanOptions   []string `json:"planOptions"`
		PlanShown     string   `json:"planShown"`
		Left          string   `json:"left"`
		AskedAfter    int      `json:"askedAfter"`
		File          string   `json:"file"`
		ExitCode      int      `json:"exitCode"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	check := checker(t)
	check("modes", seen.Modes, []string{"default", "auto_edit", "plan", "yolo"})
	check("mode entered", seen.Entered, "plan")
	check("write in plan mode", seen.WriteInPlan, []string{"pending", "failed"})
	check("file after plan mode", seen.FileAfterPlan, false)
	check("calls asked about in plan mode", seen.AskedAbout, []string{"call_p"})
	check("plan options", seen.PlanOptions, []string{"allow_once", "allow_always", "reject_once"})
	check("plan on the permission request's card", seen.PlanShown, "1. Write new.txt")
	check("mode after accepting", seen.Left, "auto_edit")
	check("questions after accepting", seen.AskedAfter, 0)
	check("file", seen.File, "made\n")
	check("exit code", seen.ExitCode, 0)
}
