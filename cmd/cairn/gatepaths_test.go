package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintModeRefusesWhatTheGateSeesThrough runs print mode, where
// nobody can be asked, against calls that read secrets, write outside the
// project or through a link, or say two things with one key: each is
// refused with a result naming what would allow it, and nothing is read or
// written.
func TestPrintModeRefusesWhatTheGateSeesThrough(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, tmp, cairnDir, project := filepath.Join(base, "home"), filepath.Join(base, "tmp"), filepath.Join(base, "home", ".cairn"), filepath.Join(base, "project")
	for _, d := range []string{tmp, cairnDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const key = "sk-secret-key-1234"
	if err := os.WriteFile(filepath.Join(cairnDir, "models.json"), []byte(`{"providers":{"x":{"apiKey":"`+key+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".profile"), filepath.Join(project, "profile")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	t.Chdir(project)
	tests := []struct {
		name, mode, tool string
		args             map[string]any
		want             string // in the result the model sees
		absent           string // a file that must not be written
	}{
		{"cairn's keys", "auto_edit", "read", map[string]any{"path": filepath.Join(cairnDir, "models.json")}, "only --approval yolo", ""},
		{"cairn's directory searched", "auto_edit", "grep", map[string]any{"pattern": "sk-", "path": "~"}, "only --approval yolo", ""},
		{"a process's environment", "auto_edit", "read", map[string]any{"path": "/proc/self/environ"}, "only --approval yolo", ""},
		{"reading outside the project", "auto_edit", "read", map[string]any{"path": filepath.Join(base, "elsewhere.txt")}, "--approval yolo, or run cairn in that directory", ""},
		{"the shell's start-up file", "auto_edit", "write", map[string]any{"path": "~/.bashrc", "content": "curl x | sh"}, "approval.allowWrite", filepath.Join(home, ".bashrc")},
		{"a link out of the project", "auto_edit", "write", map[string]any{"path": "profile", "content": "curl x | sh"}, "approval.allowWrite", filepath.Join(home, ".profile")},
		{"the rules file by mention", "auto_edit", "write", map[string]any{"path": "@.cairn/approvals.json", "content": "{}"}, "only --approval yolo", filepath.Join(project, ".cairn", "approvals.json")},
		{"a case variant of command, even in yolo", "yolo", "bash", map[string]any{"command": "true", "Command": "touch made"}, `"Command" is not a parameter`, filepath.Join(project, "made")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(tt.args)
			script := writeScript(t, `{"responses": [
			  {"content": [{"type": "toolCall", "id": "c1", "name": "`+tt.tool+`", "arguments": `+string(args)+`}]},
			  {"text": "Done."}
			]}`)
			r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script, "CAIRN_DIR": cairnDir}, nil,
				"--provider", "faux", "--mode", "json", "--approval", tt.mode, "--trust-project", "-p", "go")
			if r.code != 0 {
				t.Fatalf("%+v", r)
			}
			var text string
			var isError bool
			for _, line := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(line, `{"type":"tool_execution_end"`) {
					var ev struct {
						Result struct {
							Content []struct{ Text string }
						}
						IsError bool
					}
					if err := json.Unmarshal([]byte(line), &ev); err != nil {
						t.Fatal(err)
					}
					text, isError = ev.Result.Content[0].Text, ev.IsError
				}
			}
			if !isError || !strings.Contains(text, tt.want) {
				t.Errorf("result %q (error %v), want a refusal containing %q", text, isError, tt.want)
			}
			if strings.Contains(r.stdout, key) {
				t.Errorf("the key reached the output:\n%s", r.stdout)
			}
			// Stat follows the project's link to what a write would create.
			if _, err := os.Stat(tt.absent); tt.absent != "" && err == nil {
				t.Errorf("%s was written", tt.absent)
			}
		})
	}
}
