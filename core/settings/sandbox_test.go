package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The project's file tightens the person's sandbox and never loosens it;
// what it tried is reported.
func TestSandboxProjectOnlyTightens(t *testing.T) {
	dir := t.TempDir()
	global, project := filepath.Join(dir, "global.json"), filepath.Join(dir, "project.json")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(global, `{"sandbox": {"enabled": false, "allowWrite": ["~/.cache"], "network": ["a.com:443", "b.com:443"]}}`)
	write(project, `{"sandbox": {"enabled": true, "allowWrite": ["/"], "denyRead": ["secrets"], "network": "on"}}`)
	st, err := Load(global, project)
	if err == nil || !strings.Contains(err.Error(), `allowWrite /, network "on"`) {
		t.Errorf("Load error = %v, want the loosening reported", err)
	}
	sb := st.Sandbox()
	if !sb.Enabled || strings.Join(sb.AllowWrite, ",") != "~/.cache" || strings.Join(sb.DenyRead, ",") != "secrets" ||
		sb.Network == nil || sb.Network.String() != "a.com:443, b.com:443" {
		t.Errorf("sandbox = %+v (network %v)", sb, sb.Network)
	}
	// The person's own session change applies as theirs.
	if err := st.Set("sandbox", map[string]any{"enabled": true, "network": "on"}, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if n := st.Sandbox().Network; n == nil || !n.Open {
		t.Errorf("session network on: got %v", n)
	}
	if err := st.Set("sandbox.network", "sometimes", ScopeSession); err == nil {
		t.Error(`network "sometimes" was accepted`)
	}
	if err := st.Set("sandbox.denyReads", []string{"~/x"}, ScopeSession); err == nil || !strings.Contains(err.Error(), `unknown field "denyReads"`) {
		t.Errorf("a misspelt key: %v", err)
	}
}
