package approval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunFilesAlwaysAsk: writing a file the project's control files name
// as something to run (Config.RunFiles) asks in default, auto_edit and
// auto modes even when a rule covers it, offers no remembering and says
// what runs it; through a link too; yolo lets it through; other files are
// as before.
func TestRunFilesAlwaysAsk(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools", "start.sh"), []byte("true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("tools", "start.sh"), filepath.Join(dir, "alias.sh")); err != nil {
		t.Fatal(err)
	}
	run := map[string]string{
		".claude/hooks/start.sh":             "a script cairn runs as a hook of .claude/settings.json",
		filepath.Join(dir, "tools/start.sh"): "a script cairn runs as a hook of .cairn/settings.json",
		"tools/ext.js":                       "a script cairn runs as an extension of .cairn/settings.json",
	}
	tests := []struct {
		path   string
		reason string
	}{
		{".claude/hooks/start.sh", "writes .claude/hooks/start.sh, a script cairn runs as a hook of .claude/settings.json"},
		{filepath.Join(dir, ".claude", "hooks", "start.sh"), "a script cairn runs as a hook of .claude/settings.json"},
		{"tools/start.sh", "writes tools/start.sh, a script cairn runs as a hook of .cairn/settings.json"},
		{"alias.sh", "writes tools/start.sh, a script cairn runs as a hook of .cairn/settings.json"},
		{"tools/ext.js", "writes tools/ext.js, a script cairn runs as an extension of .cairn/settings.json"},
		{".claude/hooks/other.sh", ""},
		{"tools/notes.md", ""},
	}
	for _, mode := range []Mode{ModeDefault, ModeAutoEdit, ModeAuto} {
		for _, tt := range tests {
			ui := newFakeUI(pick(OptionAllowOnce))
			g := openGate(t, Config{Dir: dir, Mode: mode, RunFiles: run})
			g.remember([]Rule{{Tool: "edit", Path: "."}})
			d := g.Check(ctx, editTool, editCall(tt.path), ui)
			if tt.reason == "" {
				if ui.asked() != 0 {
					t.Errorf("%s %s: asked, want allowed by rule or mode: %+v", mode, tt.path, d)
				}
				continue
			}
			if ui.asked() != 1 || !d.Allow || d.By != ByPerson || !strings.Contains(d.Warning, tt.reason) {
				t.Fatalf("%s %s: %+v, asked %d times; want asked with warning %q", mode, tt.path, d, ui.asked(), tt.reason)
			}
			var values []Option
			for _, o := range ui.selects[0].Options {
				values = append(values, Option(o.Value))
			}
			if !slices.Equal(values, []Option{OptionAllowOnce, OptionDeny, OptionDenyReason}) {
				t.Errorf("%s %s: options %v offer remembering", mode, tt.path, values)
			}
		}
	}
	g := openGate(t, Config{Dir: dir, Mode: ModeYolo, RunFiles: run})
	ui := newFakeUI()
	if d := g.Check(ctx, editTool, editCall("tools/start.sh"), ui); !d.Allow || ui.asked() != 0 {
		t.Errorf("yolo: %+v", d)
	}
	// With nobody to ask (print mode), the write is refused, saying why.
	g = openGate(t, Config{Dir: dir, Mode: ModeAutoEdit, RunFiles: run})
	if d := g.Check(ctx, editTool, editCall(".claude/hooks/start.sh"), nil); d.Allow {
		t.Errorf("auto_edit with nobody to ask: %+v", d)
	}
}
