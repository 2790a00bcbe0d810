package aionrs

import "testing"

// TestDescriptionsAreEscaped: the description a host shows for a call
// quotes the model's command or path with its control characters escaped.
func TestDescriptionsAreEscaped(t *testing.T) {
	tests := []struct {
		name, tool, args, want string
	}{
		{"concealed command", "bash", `{"command":"git status\u001b[8m; rm -rf ~"}`, `bash: git status\x1b[8m; rm -rf ~`},
		{"rewritten command", "bash", `{"command":"rm -rf ~\u001b[2K\rgit status"}`, `bash: rm -rf ~\x1b[2K\rgit status`},
		{"path", "write", `{"path":"a\u202etxt.sh"}`, `write: a\u202etxt.sh`},
	}
	for _, tt := range tests {
		if got := describe(tt.tool, []byte(tt.args)); got != tt.want {
			t.Errorf("%s: describe = %q, want %q", tt.name, got, tt.want)
		}
	}
}
