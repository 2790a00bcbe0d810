package skills

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
)

// TestGrant: Claude Code's allowed-tools forms become the narrowest cairn
// rules, and what cairn cannot say narrowly (every command, a glob in the
// middle, a path outside the project, a tool it lacks) is refused, not
// widened.
func TestGrant(t *testing.T) {
	sk := Skill{AllowedTools: []string{"Bash(git add:*)", "Bash(git commit *)", "Bash(npm test)", "Read", "Grep",
		"Edit", "Write(docs/**)", "mcp__github__create_issue", "TodoWrite",
		"Bash", "Bash(*)", "Bash(rm * -rf)", "Edit(/etc/**)", "Write(../x)", "WebSearch", "Edit(src/*.go)"}}
	rules, refused := sk.Grant()
	want := []approval.Rule{{Tool: "bash", Command: "git add"}, {Tool: "bash", Command: "git commit"},
		{Tool: "bash", Command: "npm test", Exact: true}, {Tool: "edit", Path: "."}, {Tool: "write", Path: "docs"},
		{Tool: "mcp__github__create_issue"}}
	if !slices.Equal(rules, want) {
		t.Errorf("rules %+v\nwant  %+v", rules, want)
	}
	if len(refused) != 7 {
		t.Errorf("refused %d, want 7: %q", len(refused), refused)
	}
	for _, r := range refused {
		if !strings.Contains(r, ": ") {
			t.Errorf("refusal without a reason: %q", r)
		}
	}
}

func FuzzGrant(f *testing.F) {
	f.Add("Bash(git add:*)")
	f.Add("Edit(src/**)")
	f.Add("Bash(")
	f.Fuzz(func(t *testing.T, tool string) {
		rules, refused := Skill{AllowedTools: []string{tool}}.Grant()
		if len(rules)+len(refused) > 1 {
			t.Fatalf("%q gave %d rules and %d refusals", tool, len(rules), len(refused))
		}
		for _, r := range rules {
			if r.Tool == "bash" && (r.Command == "" || strings.ContainsAny(r.Command, "*?")) {
				t.Fatalf("%q granted %+v", tool, r)
			}
			if r.Path != "" && (strings.HasPrefix(r.Path, "/") || strings.HasPrefix(r.Path, "..")) {
				t.Fatalf("%q granted a path outside the project: %+v", tool, r)
			}
		}
	})
}
