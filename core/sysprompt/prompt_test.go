package sysprompt

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

func specs(names ...string) []core.ToolSpec {
	out := make([]core.ToolSpec, len(names))
	for i, n := range names {
		out[i] = core.ToolSpec{Name: n, Description: "Long description of " + n + ". More detail."}
	}
	return out
}

var day = time.Date(2026, 3, 7, 23, 59, 0, 0, time.UTC)

// inOrder fails unless every part occurs in s, each after the one before.
func inOrder(t *testing.T, s string, parts ...string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(s[at:], p)
		if i < 0 {
			t.Fatalf("%q missing (or out of order) in prompt:\n%s", p, s)
		}
		at += i + len(p)
	}
}

func TestBuildDefaultPrompt(t *testing.T) {
	got := Build(Options{
		Tools:  append(specs("read", "bash", "edit", "write", "grep", "find", "ls"), core.ToolSpec{Name: "web_fetch", Description: "Fetch a URL and return it as markdown. Follows redirects."}),
		Cwd:    "/home/u/proj",
		Date:   day,
		Append: "Always answer in French.\n",
		ContextFiles: []ContextFile{
			{Path: "/home/u/.cairn/AGENTS.md", Content: "User rules.\n"},
			{Path: "/home/u/proj/AGENTS.md", Content: "Run make test."},
		},
	})
	inOrder(t, got,
		"You are cairn",
		"\n\nAvailable tools:\n- read: Read a file",
		"\n- bash: Run a shell command",
		"\n- edit: ", "\n- write: ", "\n- grep: ", "\n- find: ", "\n- ls: ",
		"\n- web_fetch: Fetch a URL and return it as markdown.",
		"\n\nGuidelines:\n- ",
		"prefer the grep, find and ls tools to bash",
		"not with cat",
		"edits[].oldText must match the file exactly",
		"Use write for new files and complete rewrites",
		"Be concise.",
		"\n\nAlways answer in French.\n\n# Project Context\n\n",
		"\n\n## /home/u/.cairn/AGENTS.md\n\nUser rules.\n\n## /home/u/proj/AGENTS.md\n\nRun make test.",
		"\n\nCurrent date: 2026-03-07\nCurrent working directory: /home/u/proj",
	)
	if !strings.HasSuffix(got, "Current working directory: /home/u/proj") {
		t.Errorf("prompt does not end with the working directory:\n%s", got)
	}
	if strings.Contains(got, "Long description") || strings.Contains(got, "Follows redirects") {
		t.Error("tool list carries whole descriptions, not one line per tool")
	}
	if strings.Contains(got, "\n\n\n") {
		t.Errorf("prompt has runs of blank lines:\n%s", got)
	}
}

func TestGuidelinesFollowTools(t *testing.T) {
	tests := []struct {
		tools   []string
		want    []string
		notWant []string
	}{
		{
			tools:   []string{"read", "bash", "edit", "write"},
			want:    []string{"Use bash for file operations", "not with cat", "Read a file before you edit it", "edits[]", "change existing files with edit"},
			notWant: []string{"prefer the"},
		},
		{
			tools:   []string{"bash", "grep"},
			want:    []string{"prefer the grep tool to bash"},
			notWant: []string{"Use bash for file operations", "edits[]", "Use write", "not with cat", "report what you changed"},
		},
		{
			tools:   []string{"read", "grep", "find", "ls"},
			want:    []string{"Be concise."},
			notWant: []string{"bash", "edit", "write"},
		},
		{
			tools: []string{"write"},
			want:  []string{"Use write for new files and complete rewrites.", "report what you changed"},
		},
		{
			tools:   []string{"bash", "bash_output", "kill_shell"},
			want:    []string{"run_in_background: true", "Poll a background command with bash_output", "Stop background commands with kill_shell"},
			notWant: []string{"edits[]"},
		},
		{
			tools:   []string{"bash"},
			notWant: []string{"run_in_background", "bash_output", "kill_shell"},
		},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.tools, ","), func(t *testing.T) {
			got := Build(Options{Tools: specs(tt.tools...), Cwd: "/w", Date: day})
			_, guide, _ := strings.Cut(got, "Guidelines:")
			guide, _, _ = strings.Cut(guide, "Current date:")
			for _, w := range tt.want {
				if !strings.Contains(guide, w) {
					t.Errorf("guidelines lack %q:\n%s", w, guide)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(guide, w) {
					t.Errorf("guidelines mention %q:\n%s", w, guide)
				}
			}
		})
	}
}

func TestBuildWithoutToolsOrContext(t *testing.T) {
	got := Build(Options{Cwd: `/w`, Date: day})
	inOrder(t, got, "Available tools:\n(none)\n\nGuidelines:\n- Be concise.")
	if strings.Contains(got, "# Project Context") {
		t.Error("project context heading without context files")
	}
}

func TestCustomPromptReplacesBaseOnly(t *testing.T) {
	got := Build(Options{
		Tools:        specs("read", "edit"),
		Cwd:          "/w",
		Date:         day,
		Custom:       "You are a terse reviewer.\n\n",
		Append:       "Extra rule.",
		ContextFiles: []ContextFile{{Path: "/w/AGENTS.md", Content: "Project rule."}},
	})
	if !strings.HasPrefix(got, "You are a terse reviewer.") {
		t.Errorf("custom prompt does not come first:\n%s", got)
	}
	for _, gone := range []string{"You are cairn", "Available tools:", "Guidelines:", "edits[]"} {
		if strings.Contains(got, gone) {
			t.Errorf("custom prompt kept %q of the base prompt:\n%s", gone, got)
		}
	}
	inOrder(t, got,
		"You are a terse reviewer.\n\nExtra rule.",
		"\n\n# Project Context\n\n", "## /w/AGENTS.md\n\nProject rule.",
		"\n\nCurrent date: 2026-03-07\nCurrent working directory: /w")
}

func TestBuildDefaultsDateAndCwd(t *testing.T) {
	got := Build(Options{})
	if !strings.Contains(got, "Current date: "+time.Now().Format(time.DateOnly)) &&
		!strings.Contains(got, "Current date: "+time.Now().Add(-time.Minute).Format(time.DateOnly)) {
		t.Errorf("zero Date is not today:\n%s", got)
	}
	if strings.HasSuffix(got, "Current working directory: ") {
		t.Error("empty Cwd left the working directory blank")
	}
}

func TestSummaryOfUnknownTool(t *testing.T) {
	long := strings.Repeat("word ", 60)
	for _, tt := range []struct{ desc, want string }{
		{"", "(no description)"},
		{"Do a thing.\nSecond line.", "Do a thing."},
		{"Do a thing. Then another.", "Do a thing."},
		{"  v1.2 parser  ", "v1.2 parser"},
		{long, strings.TrimSpace(long)[:maxSummaryRunes-1] + "…"},
	} {
		if got := summary(core.ToolSpec{Name: "x", Description: tt.desc}); got != tt.want {
			t.Errorf("summary(%q) = %q, want %q", tt.desc, got, tt.want)
		}
	}
}

// TestSkillsSectionNeedsRead: the skills list comes after the context
// files and before the date, and only when the model can read a skill.
func TestSkillsSectionNeedsRead(t *testing.T) {
	opts := Options{Tools: []core.ToolSpec{{Name: "read"}}, Cwd: "/p", Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
		ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "ctx"}}, Skills: "<available_skills>s</available_skills>\n"}
	var names []string
	for _, s := range Sections(opts) {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "preamble tools rules context skills cwd" {
		t.Errorf("sections %s", got)
	}
	opts.Tools = []core.ToolSpec{{Name: "bash"}}
	if strings.Contains(Build(opts), "available_skills") {
		t.Error("skills listed without the read tool")
	}
}
