package ccperm

import (
	"encoding/json"
	"testing"
)

// The rules are shaped after real hook configurations: "Bash(git commit:*)"
// and "Bash(git push:*)" from Anthropic's security-guidance plugin, and the
// Claude Code hooks reference's "Edit(*.ts)" and "Bash(git *)".
func TestRule(t *testing.T) {
	cases := []struct {
		rule, tool, input string
		want              bool
	}{
		{"Bash(git commit:*)", "Bash", `{"command":"git commit -m x"}`, true},
		{"Bash(git commit:*)", "Bash", `{"command":"cd a && git  commit"}`, true},
		{"Bash(git commit:*)", "Bash", `{"command":"git commit-tree x"}`, false},
		{"Bash(git commit:*)", "Bash", `{"command":"git status"}`, false},
		{"Bash(git push:*)", "Edit", `{"command":"git push"}`, false},
		{"Bash(git *)", "Bash", `{"command":"git log"}`, true},
		{"Bash(git *)", "Bash", `{"command":"gitk"}`, false},
		{"Bash", "Bash", `{"command":"anything"}`, true},
		{"Edit(*.ts)", "Edit", `{"file_path":"/p/src/a.ts"}`, true},
		{"Edit(*.ts)", "Edit", `{"file_path":"/p/src/a.tsx"}`, false},
		{"Edit(/src/**)", "Edit", `{"file_path":"/p/src/x/y.go"}`, true},
		{"Edit(/src/**)", "Edit", `{"file_path":"/p/lib/src/y.go"}`, false},
		{"Read(./secrets/**)", "Read", `{"file_path":"/p/secrets/k"}`, true},
		{"Read(~/.ssh/*)", "Read", `{"file_path":"/home/u/.ssh/id"}`, true},
		{"Read(//etc/passwd)", "Read", `{"file_path":"/etc/passwd"}`, true},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://docs.example.com/x"}`, true},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://badexample.com/x"}`, false},
		{"mcp__github__create_issue", "mcp__github__create_issue", `{}`, true},
	}
	for _, c := range cases {
		cond, err := Parse(c.rule)
		if err != nil {
			t.Errorf("%s: %v", c.rule, err)
			continue
		}
		if got := cond.Match([]string{c.tool}, json.RawMessage(c.input), "/p", "/home/u"); got != c.want {
			t.Errorf("%s on %s %s: %v, want %v", c.rule, c.tool, c.input, got, c.want)
		}
	}
	for _, bad := range []string{"Bash(", "Bash(:*)", "Task(reviewer)", "WebFetch(example.com)", "a b"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
}

func FuzzRule(f *testing.F) {
	for _, s := range []string{"Bash(git commit:*)", "Edit(**/*.ts)", "Read(~/.ssh/*)", "WebFetch(domain:x.org)", "Bash(*)", "Read(//a/**/b)"} {
		f.Add(s, `{"command":"git commit","file_path":"/p/a.ts","url":"http://x.org"}`)
	}
	f.Fuzz(func(t *testing.T, rule, input string) {
		c, err := Parse(rule)
		if err != nil {
			return
		}
		c.Match([]string{"Bash", "Edit", "Read", "WebFetch"}, json.RawMessage(input), "/p", "/home/u")
		if c.Match([]string{"NoSuchTool"}, json.RawMessage(input), "/p", "/home/u") && c.tool != "NoSuchTool" {
			t.Fatalf("%q matched a tool it does not name", rule)
		}
	})
}
