package ccperm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
)

// claudeSettings is shaped after the example settings.json of Claude
// Code's settings documentation (allow and deny lists with Bash prefixes,
// .env files and a secrets directory), with an ask list, MCP rules and
// forms cairn cannot say exactly.
const claudeSettings = `{
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)", "Edit(./src/**)",
              "mcp__sequential-thinking", "mcp__github__get_issue", "Bash(git * main)", "WebFetch(domain:github.com)", "Bash"],
    "deny": ["Bash(curl:*)", "Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)", "Task(Explore)"],
    "ask": ["Bash(git push:*)"],
    "defaultMode": "acceptEdits"
  },
  "env": {"FOO": "bar"}
}`

func TestParseSettingsTranslatesFaithfully(t *testing.T) {
	p, warnings, err := ParseSettings("settings.json", []byte(claudeSettings), "/home/u")
	if err != nil {
		t.Fatal(err)
	}
	want := []approval.Rule{
		{Tool: "bash", Command: "npm run lint", Exact: true},
		{Tool: "bash", Command: "npm run test"},
		{Tool: "read", Path: "/home/u/.zshrc"},
		{Tool: "edit", Path: "src"}, {Tool: "write", Path: "src"},
		{Tool: "mcp__sequential-thinking__*"},
		{Tool: "mcp__github__get_issue"},
	}
	g, _ := json.Marshal(p.Allow)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("allow\n got %s\nwant %s", g, w)
	}
	joined := strings.Join(warnings, "\n")
	for _, s := range []string{`allow "Bash(git * main)" is not applied`, `allow "WebFetch(domain:github.com)" is not applied`,
		`allow "Bash" is not applied`, `deny "Task(Explore)"`, "every Task call instead", `defaultMode "acceptEdits" is not read`} {
		if !strings.Contains(joined, s) {
			t.Errorf("warnings lack %q:\n%s", s, joined)
		}
	}
	deny := func(tool, input string) bool {
		for _, r := range p.Deny {
			if r.Match([]string{tool}, json.RawMessage(input), "/p", "/home/u") {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		tool, input string
		want        bool
	}{
		{"Bash", `{"command":"curl https://x"}`, true},
		{"Bash", `{"command":"ls && curl x"}`, true},
		{"Bash", `{"command":"npm test"}`, false},
		{"Read", `{"file_path":"/p/.env"}`, true},
		{"Read", `{"file_path":"/p/.env.local"}`, true},
		{"Grep", `{"pattern":"k","path":"/p/secrets/api"}`, true}, // Read rules hold for Grep too
		{"Read", `{"file_path":"/p/src/main.go"}`, false},
		{"Task", `{"subagent_type":"Explore"}`, true},
	} {
		if got := deny(c.tool, c.input); got != c.want {
			t.Errorf("deny %s %s = %v, want %v", c.tool, c.input, got, c.want)
		}
	}
	if len(p.Ask) != 1 || p.Ask[0].String() != "Bash(git push:*)" {
		t.Errorf("ask %+v", p.Ask)
	}
}

// Every allow rule's translation is one cairn's gate accepts, and no
// wider than the rule: a Bash rule's command starts with its words.
func FuzzAllowRules(f *testing.F) {
	for _, s := range []string{"Bash(npm test:*)", "Bash(ls *)", "Edit(./a/**)", "Read(//etc/x)", "mcp__a__b", "mcp__a", "Edit(~/x/**)", "Edit(../x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rules, why := AllowRules(text, "/home/u")
		if why != "" {
			if len(rules) > 0 {
				t.Fatalf("%q: rules and a reason", text)
			}
			return
		}
		if len(rules) == 0 {
			t.Fatalf("%q: no rules and no reason", text)
		}
		for _, r := range rules {
			if r.Command == "" && r.Path == "" && !strings.HasPrefix(r.Tool, "mcp__") {
				t.Fatalf("%q gave a rule for every call of %s", text, r.Tool)
			}
			if r.Path != "" && (r.Path == ".." || strings.HasPrefix(r.Path, "../")) {
				t.Fatalf("%q left the project: %+v", text, r)
			}
		}
	})
}
