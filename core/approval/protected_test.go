package approval

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestProtectedPathsAlwaysAsk checks that edits of files that steer cairn
// or run as programs ask in default, auto_edit and auto modes even when a
// rule covers them, with the reason in the question and the decision, and
// that yolo lets them through.
func TestProtectedPathsAlwaysAsk(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	userDir := filepath.Join(t.TempDir(), "cairn")
	tests := []struct {
		path   string
		reason string // "" for a file that is not protected
	}{
		{".cairn/approvals.json", "writes .cairn/approvals.json, a file that controls cairn"},
		{filepath.Join(dir, ".cairn", "settings.json"), "writes .cairn/settings.json, a file that controls cairn"},
		{"sub/../.cairn/x", "writes .cairn/x, a file that controls cairn"},
		{"AGENTS.md", "writes AGENTS.md, instructions cairn gives the model"},
		{"pkg/CLAUDE.md", "writes pkg/CLAUDE.md, instructions cairn gives the model"},
		{"agents.md", "writes agents.md, instructions cairn gives the model"},
		{".git/hooks/pre-commit", "writes .git/hooks/pre-commit, a git hook that git runs as a program"},
		{".git/config", "writes .git/config, git's configuration, which can name programs git runs"},
		{".mcp.json", "writes .mcp.json, MCP servers cairn starts as programs"},
		{"svc/.MCP.json", "writes svc/.MCP.json, MCP servers cairn starts as programs"},
		{filepath.Join(userDir, "settings.json"), "a file that controls cairn"},
		{"src/main.go", ""},
		{".github/workflows/x.yml", ""},
		{"docs/AGENTS.md.txt", ""},
		{".git/HEAD", ""},
	}
	for _, mode := range []Mode{ModeDefault, ModeAutoEdit, ModeAuto} {
		for _, tt := range tests {
			ui := newFakeUI(pick(OptionAllowOnce))
			g := openGate(t, Config{Dir: dir, Mode: mode, ProtectedDirs: []string{userDir}})
			g.remember([]Rule{{Tool: "edit", Path: "."}, {Tool: "edit", Path: filepath.ToSlash(userDir)}})
			d := g.Check(ctx, editTool, editCall(tt.path), ui)
			if tt.reason == "" {
				if d.By == ByPerson || ui.asked() != 0 {
					t.Errorf("%s %s: asked, want allowed by rule or mode: %+v", mode, tt.path, d)
				}
				continue
			}
			if !d.Allow || d.By != ByPerson || !strings.Contains(d.Warning, tt.reason) {
				t.Errorf("%s %s: %+v, want asked with warning %q", mode, tt.path, d, tt.reason)
			}
			if ui.asked() != 1 {
				t.Fatalf("%s %s: asked %d times", mode, tt.path, ui.asked())
			}
			q := ui.selects[0]
			if !strings.Contains(q.Message, tt.reason) {
				t.Errorf("%s %s: question message %q lacks %q", mode, tt.path, q.Message, tt.reason)
			}
			var values []Option
			for _, o := range q.Options {
				values = append(values, Option(o.Value))
			}
			if !slices.Equal(values, []Option{OptionAllowOnce, OptionDeny, OptionDenyReason}) {
				t.Errorf("%s %s: options %v offer remembering", mode, tt.path, values)
			}
		}
	}
	g := openGate(t, Config{Dir: dir, Mode: ModeYolo})
	ui := newFakeUI()
	if d := g.Check(ctx, editTool, editCall(".cairn/approvals.json"), ui); !d.Allow || d.By != ByMode || ui.asked() != 0 {
		t.Errorf("yolo: %+v", d)
	}
	// Reading a protected file is not an edit.
	g.SetMode(ModeDefault)
	if d := g.Check(ctx, readTool, call("read", map[string]string{"path": ".cairn/approvals.json"}), ui); !d.Allow || d.By != ByMode {
		t.Errorf("read: %+v", d)
	}
}

// TestAutoModeAsksOnlyAboutProtectedFiles: auto, where --mode rpc starts,
// runs commands, edits and MCP tools without asking, as pi does; only an
// edit of a protected file is still a question.
func TestAutoModeAsksOnlyAboutProtectedFiles(t *testing.T) {
	ctx := context.Background()
	g := openGate(t, Config{Dir: t.TempDir(), Mode: ModeAuto})
	for _, c := range []struct {
		tool fakeTool
		call core.ToolCall
	}{{bashTool, bashCall("rm -rf build")}, {editTool, editCall("src/main.go")}, {mcpTool, call("github_search", nil)}} {
		ui := newFakeUI()
		if d := g.Check(ctx, c.tool, c.call, ui); !d.Allow || d.By != ByMode || ui.asked() != 0 {
			t.Errorf("%s: %+v, asked %d times; want allowed by the mode", c.tool.name, d, ui.asked())
		}
	}
	ui := newFakeUI(pick(OptionDeny))
	if d := g.Check(ctx, editTool, editCall(".cairn/approvals.json"), ui); d.Allow || ui.asked() != 1 {
		t.Errorf("protected file in auto mode: %+v, asked %d times; want asked and denied", d, ui.asked())
	}
}
