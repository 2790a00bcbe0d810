package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiSettingsLieUnderCairns: pi's keys apply where cairn's files are
// silent, cairn's win where both speak, pi's other keys and bad values are
// left out, and a change is written to cairn's file, never pi's.
func TestPiSettingsLieUnderCairns(t *testing.T) {
	g, p := files(t, `{"theme": "light", "compaction": {"reserveTokens": 5000}}`, "")
	piFile := filepath.Join(t.TempDir(), "settings.json")
	piText := `{"defaultProvider": "crof", "defaultModel": "m1", "defaultThinkingLevel": "high",
	  "theme": "dark", "compaction": {"enabled": false, "reserveTokens": 1}, "steeringMode": "sideways",
	  "approvalMode": "yolo", "packages": ["npm:x"]}`
	if err := os.WriteFile(piFile, []byte(piText), 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t, g, p)
	err := s.Underlay(piFile)
	if err == nil || !strings.Contains(err.Error(), "steeringMode") {
		t.Fatalf("a bad value in pi's file should be reported, got %v", err)
	}
	e := s.Effective()
	if e.DefaultProvider != "crof" || e.DefaultModel != "m1" || e.DefaultThinkingLevel != "high" {
		t.Fatalf("pi's defaults not read: %+v", e)
	}
	if e.Theme != "light" || e.Compaction.ReserveTokens != 5000 || e.Compaction.Enabled {
		t.Fatalf("cairn's file should win key by key over pi's: theme %q, compaction %+v", e.Theme, e.Compaction)
	}
	if e.ApprovalMode == "yolo" {
		t.Fatal("a key pi does not have (approvalMode) was read from pi's file")
	}
	if e.SteeringMode != Defaults().SteeringMode {
		t.Fatalf("a bad value from pi's file was used: %q", e.SteeringMode)
	}
	if err := s.Set("theme", "dark", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(piFile); string(got) != piText {
		t.Fatalf("pi's settings file was written:\n%s", got)
	}
}
