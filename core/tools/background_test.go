//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
)

func runTool(t *testing.T, tool core.Tool, args string) core.ToolResult {
	t.Helper()
	res, err := tool.Execute(context.Background(), core.ToolCall{ID: "c", Name: tool.Spec().Name, Arguments: json.RawMessage(args)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func resultText(r core.ToolResult) string {
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func TestBackgroundToolsRefuseClearly(t *testing.T) {
	table := background.New(background.Options{TempDir: t.TempDir()})
	defer table.Close()
	dir := t.TempDir()
	ts := WithBackground(New(dir), table)
	byName := map[string]core.Tool{}
	for _, tool := range ts {
		byName[tool.Spec().Name] = tool
	}
	if !strings.Contains(string(byName["bash"].Spec().Parameters), "run_in_background") {
		t.Fatal("bash with a table does not offer run_in_background")
	}
	if strings.Contains(string(NewBash(dir).Spec().Parameters), "run_in_background") {
		t.Fatal("bash without a table offers run_in_background")
	}
	tests := []struct {
		tool      core.Tool
		args      string
		wantError bool
		want      string
		settle    bool // wait for every background command to end first
	}{
		// Without a table the parameter is not declared, so the strict
		// argument check refuses it by name.
		{NewBash(dir), `{"command":"true","run_in_background":true}`, true, `"run_in_background" is not a parameter`, false},
		{byName["bash_output"], `{"bash_id":"bash_7"}`, true, "none has been started", false},
		{byName["kill_shell"], `{}`, true, "shell_id is required", false},
		{byName["bash"], `{"command":"echo hi","run_in_background":"true","timeout":3}`, false, "Started in the background as bash_1", false},
		{byName["bash_output"], `{"bash_id":"bash_1","filter":"("}`, true, "not a valid regular expression", false},
		{byName["bash_output"], `{"bash_id":"bash_1","wait":10}`, false, "bash_1: exited with code 0\nhi", true},
		{byName["kill_shell"], `{"shell_id":"bash_1"}`, true, "Nothing to stop: bash_1 has already ended (exited with code 0)", false},
		{byName["bash_output"], `{"bash_id":"bash_2"}`, true, "Background commands: bash_1 (exited with code 0)", false},
	}
	changed, stop := table.Subscribe()
	defer stop()
	for _, tt := range tests {
		for tt.settle && table.Running() > 0 {
			select {
			case <-changed:
			case <-time.After(10 * time.Second):
				t.Fatal("the background command did not end within 10s")
			}
		}
		res := runTool(t, tt.tool, tt.args)
		if res.IsError != tt.wantError || !strings.Contains(resultText(res), tt.want) {
			t.Errorf("%s %s: error %v, %q; want error %v and %q", tt.tool.Spec().Name, tt.args, res.IsError, resultText(res), tt.wantError, tt.want)
		}
	}
}
