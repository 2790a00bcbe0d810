package approval

import (
	"context"
	"strings"
	"testing"
)

// TestQuestionsShowControlCharactersEscaped: the question quotes the
// model's command or path; its control characters arrive escaped, so a
// front end cannot be made to hide or rewrite part of what is asked.
func TestQuestionsShowControlCharactersEscaped(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name         string
		tool         fakeTool
		arg, value   string
		title, rules string // rules: in the message, which names the rule remembering saves
	}{
		{"concealed end", bashTool, "command", "git status\x1b[8m; rm -rf ~", `Allow bash: git status\x1b[8m; rm -rf ~?`, ""},
		{"erased and rewritten line", bashTool, "command", "rm -rf ~\x1b[2K\rgit status", `Allow bash: rm -rf ~\x1b[2K\rgit status?`, ""},
		{"newline in the command", bashTool, "command", "true\nrm -rf ~", `Allow bash: true\nrm -rf ~?`, ""},
		{"right-to-left override", bashTool, "command", "cat \u202eexe.txt", `Allow bash: cat \u202eexe.txt?`, ""},
		{"8-bit CSI", bashTool, "command", "ls \u009b2K", `Allow bash: ls \u009b2K?`, ""},
		{"path", editTool, "path", "a\rAGENTS.txt", `Allow edit: a\rAGENTS.txt?`, `\r`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := openGate(t, Config{Dir: dir, RulesFile: ProjectRulesFile(dir)})
			ui := newFakeUI(pick(OptionDenyReason), typed("no"))
			g.Check(context.Background(), tt.tool, call(tt.tool.name, map[string]string{tt.arg: tt.value}), ui)
			q := ui.lastSelect()
			if q.Title != tt.title {
				t.Errorf("title %q, want %q", q.Title, tt.title)
			}
			if !strings.Contains(q.Message, tt.rules) {
				t.Errorf("message %q lacks %q", q.Message, tt.rules)
			}
			texts := []string{q.Title, q.Message, ui.inputs[0].Title}
			for _, s := range texts {
				if strings.ContainsAny(s, "\x1b\r\n\u202e\u009b") {
					t.Errorf("question text %q holds a control character", s)
				}
			}
		})
	}
}
