package acp

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestToolCallTitlesAreEscaped: an editor shows a call's title as text;
// the model's command or path in it arrives with its control characters
// escaped.
func TestToolCallTitlesAreEscaped(t *testing.T) {
	s := &server{}
	b := &bound{host: Host{Cwd: t.TempDir()}, kinds: map[string]core.ToolKind{"bash": core.KindExecute, "read": core.KindRead}}
	tests := []struct {
		name, tool, args, want string
	}{
		{"concealed command", "bash", `{"command":"git status\u001b[8m; rm -rf ~"}`, `git status\x1b[8m; rm -rf ~`},
		{"rewritten command", "bash", `{"command":"rm -rf ~\u001b[2K\rgit status"}`, `rm -rf ~\x1b[2K\rgit status`},
		{"path", "read", `{"path":"\u001b[8m/etc/shadow"}`, `read \x1b[8m/etc/shadow`},
	}
	for _, tt := range tests {
		if _, title, _ := s.describe(b, tt.tool, json.RawMessage(tt.args), false); title != tt.want {
			t.Errorf("%s: title %q, want %q", tt.name, title, tt.want)
		}
	}
}
