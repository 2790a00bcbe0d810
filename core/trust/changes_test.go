package trust

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestChanges: after trust, the files added, changed and removed are
// named, and the trust file is left as it was.
func TestChanges(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "AGENTS.md"), "rules")
	write(t, filepath.Join(dir, ".mcp.json"), "{}")
	write(t, filepath.Join(dir, "CLAUDE.md"), "old")
	p := Find(dir)
	s := &Store{Path: filepath.Join(t.TempDir(), "trusted.json")}
	if ch, err := s.Changes(p, p.Scan()); ch != nil || err != nil {
		t.Fatalf("untrusted: %v, %v", ch, err)
	}
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers":{}}`)
	write(t, filepath.Join(dir, ".cairn", "settings.json"), "{}")
	if err := os.Remove(filepath.Join(dir, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.Path)
	ch, err := s.Changes(p, p.Scan())
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{".cairn/settings.json", "added"}, {".mcp.json", "changed"}, {"CLAUDE.md", "removed"}}
	if !slices.Equal(ch, want) {
		t.Errorf("Changes = %v, want %v", ch, want)
	}
	if after, _ := os.ReadFile(s.Path); string(after) != string(before) {
		t.Error("Changes wrote the trust file")
	}
}
