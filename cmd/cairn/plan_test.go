package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintModePlan runs --approval plan where nobody can answer: the
// write is refused for plan mode, and the plan is refused too (nobody can
// accept it), so nothing is written and the model is told to give the
// plan as its answer.
func TestPrintModePlan(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	script := writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "w1", "name": "write", "arguments": {"path": "a.txt", "content": "x"}}]},
	  {"content": [{"type": "toolCall", "id": "p1", "name": "exit_plan_mode", "arguments": {"plan": "1. Write a.txt"}}]},
	  {"text": "Here is the plan."}
	]}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script, "CAIRN_DIR": t.TempDir()}, nil,
		"--provider", "faux", "--mode", "json", "--approval", "plan", "-p", "go")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	results := map[string]string{}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, `{"type":"tool_execution_end"`) {
			var ev struct {
				ToolCallID string
				Result     struct{ Content []struct{ Text string } }
				IsError    bool
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatal(err)
			}
			if !ev.IsError {
				t.Errorf("%s ran: %s", ev.ToolCallID, line)
			}
			results[ev.ToolCallID] = ev.Result.Content[0].Text
		}
	}
	if !strings.Contains(results["w1"], "plan mode") || !strings.Contains(results["p1"], "nobody can answer") {
		t.Errorf("results %q", results)
	}
	if _, err := os.Stat(filepath.Join(project, "a.txt")); err == nil {
		t.Error("a.txt was written in plan mode")
	}
}
