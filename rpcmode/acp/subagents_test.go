package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestOfficialClientSubagents drives a built cairn with the official ACP
// SDK through the task tool: two explore children in one answer show as
// think tool calls with live content and their answers; the session's
// usage_update carries its cost (Stats: children included, see
// core/subagent's TestUsageRollsUp) with a priced model; a general-purpose
// child's write asks through the session's session/request_permission,
// under its task call, labelled with the agent and task, and without a
// reject_always that would name the task tool.
func TestOfficialClientSubagents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	bin := buildCairn(t)
	project := t.TempDir()
	task := func(id, typ, description, prompt string) map[string]any {
		return map[string]any{"type": "toolCall", "id": id, "name": "task",
			"arguments": map[string]any{"description": description, "prompt": prompt, "subagent_type": typ}}
	}
	text := func(s string) map[string]any { return map[string]any{"text": s} }
	script, _ := json.Marshal(map[string]any{"responses": []any{
		map[string]any{"content": []any{task("t1", "explore", "look one", "Look one."), task("t2", "explore", "look two", "Look two.")}},
		text("child answer"), text("child answer"),
		text("both looked"),
		map[string]any{"content": []any{task("t3", "general-purpose", "write the notes", "Write notes.txt.")}},
		map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": "w1", "name": "write",
			"arguments": map[string]any{"path": "notes.txt", "content": "hi\n"}}}},
		text("wrote notes.txt"),
		text("done"),
	}})
	// A priced model playing the faux script, so the cost is not zero.
	cairnDir := t.TempDir()
	models := `{"providers":{"priced":{"api":"faux","baseUrl":"http://localhost:0","apiKey":"none","models":[` +
		`{"id":"faux-priced","name":"Faux with prices","contextWindow":128000,"maxTokens":16384,` +
		`"cost":{"input":3,"output":15,"cacheRead":0,"cacheWrite":0}}]}}}`
	if err := os.WriteFile(filepath.Join(cairnDir, "models.json"), []byte(models), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runClientScriptIn(t, node, dir, "subagents.mjs", bin, project, cairnDir, script)
	var seen struct {
		TaskKinds   []string       `json:"taskKinds"`
		LiveContent []bool         `json:"liveContent"`
		Answers     []string       `json:"answers"`
		UsageCost   map[string]any `json:"usageCost"`
		Permission  map[string]any `json:"permission"`
		Written     *string        `json:"written"`
		WriteAnswer string         `json:"writeAnswer"`
		ExitCode    int            `json:"exitCode"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	check := checker(t)
	check("task calls", seen.TaskKinds, []string{"t1:think", "t2:think"})
	check("live content of each", seen.LiveContent, []bool{true, true})
	check("answers", seen.Answers, []string{"child answer", "child answer"})
	check("usage_update cost", seen.UsageCost, map[string]any{"currency": "USD", "positive": true})
	check("permission", seen.Permission, map[string]any{"toolCallId": "t3", "labelled": true, "rejectAlways": false})
	if seen.Written == nil || *seen.Written != "hi\n" {
		t.Errorf("notes.txt = %v, want written after allow once", seen.Written)
	}
	check("write task's answer", seen.WriteAnswer, "wrote notes.txt")
	check("exit code", seen.ExitCode, 0)
}
