package subagent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadDefinition(t *testing.T) {
	cases := []struct {
		name, text string
		want       Definition
		warn, err  string
	}{
		{name: "claude code's shape",
			text: "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob, Bash\nmodel: sonnet\ncolor: blue\n---\nYou review code.\n",
			want: Definition{Name: "reviewer", Description: "Reviews code", Tools: []string{"read", "grep", "find", "bash"}, Model: "sonnet", Prompt: "You review code."},
			warn: "color (line 6)"},
		{name: "a list, thinking, no tools key",
			text: "---\nname: deep\ndescription: Thinks\nthinking: high\n---\nThink.",
			want: Definition{Name: "deep", Description: "Thinks", Thinking: core.ThinkingHigh, Prompt: "Think."}},
		{name: "tools given as an empty list means none",
			text: "---\nname: none\ndescription: d\ntools: []\n---\n",
			want: Definition{Name: "none", Description: "d", Tools: []string{}}},
		{name: "no front matter", text: "just text", err: "no front matter"},
		{name: "no description", text: "---\nname: x\n---\n", err: "description is missing"},
		{name: "bad name", text: "---\nname: a/b\ndescription: d\n---\n", err: "name \"a/b\""},
		{name: "bad thinking", text: "---\nname: a\ndescription: d\nthinking: lots\n---\n", err: "thinking"},
		{name: "tools as nested keys", text: "---\nname: a\ndescription: d\ntools:\n  x: y\n---\n", err: "tools"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, warn, err := parseDefinition("/x/a.md", c.text)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "/x/a.md") {
					t.Fatalf("err = %v, want one naming the file and %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.Path = "/x/a.md"
			if d.Name != c.want.Name || d.Description != c.want.Description || !slices.Equal(d.Tools, c.want.Tools) ||
				(d.Tools == nil) != (c.want.Tools == nil) || d.Model != c.want.Model || d.Thinking != c.want.Thinking || d.Prompt != c.want.Prompt {
				t.Errorf("got %+v, want %+v", d, c.want)
			}
			if (warn == nil) != (c.warn == "") || warn != nil && !strings.Contains(warn.Error(), c.warn) {
				t.Errorf("warn = %v, want %q", warn, c.warn)
			}
		})
	}
}

// The person's own definitions win a name; the project's count only when
// it is trusted; other agents' directories only when Others is set.
func TestPlacesAndPrecedence(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	cairn := filepath.Join(home, ".cairn")
	def := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody\n"
	}
	write(t, filepath.Join(cairn, "agents", "mine.md"), def("shared", "the person's"))
	write(t, filepath.Join(home, ".claude", "agents", "claude.md"), def("from-claude", "claude's"))
	write(t, filepath.Join(project, ".cairn", "agents", "p.md"), def("shared", "the project's"))
	write(t, filepath.Join(project, ".cairn", "agents", "q.md"), def("project-only", "the project's"))
	write(t, filepath.Join(project, ".claude", "agents", "r.md"), def("project-claude", "the project's claude"))

	names := func(p Places) (map[string]string, *Set) {
		defs, problems := Load(p.Dirs())
		if len(problems) != 0 {
			t.Fatal(problems)
		}
		set := NewSet(defs...)
		out := map[string]string{}
		for _, d := range set.All() {
			out[d.Name] = d.Description
		}
		return out, set
	}
	untrusted, _ := names(Places{Home: home, CairnDir: cairn, Project: project, Others: true})
	if _, ok := untrusted["project-only"]; ok || untrusted["shared"] != "the person's" || untrusted["from-claude"] == "" {
		t.Errorf("untrusted project: %v", untrusted)
	}
	trusted, set := names(Places{Home: home, CairnDir: cairn, Project: project, Trusted: true, Others: true})
	if trusted["shared"] != "the person's" || trusted["project-only"] == "" || trusted["project-claude"] == "" {
		t.Errorf("trusted project: %v", trusted)
	}
	if len(set.Hidden) != 1 || set.Hidden[0].Description != "the project's" {
		t.Errorf("hidden = %+v, want the project's shared", set.Hidden)
	}
	noOthers, _ := names(Places{Home: home, CairnDir: cairn, Project: project, Trusted: true})
	if _, ok := noOthers["from-claude"]; ok {
		t.Errorf("otherAgentDirs off still reads ~/.claude/agents: %v", noOthers)
	}
	if _, ok := noOthers["project-claude"]; ok {
		t.Errorf("otherAgentDirs off still reads .claude/agents: %v", noOthers)
	}
	if noOthers["explore"] == "" || noOthers["general-purpose"] == "" {
		t.Errorf("built-in agents missing: %v", noOthers)
	}
}

// A user definition of a built-in name replaces it; the task tool's
// description lists the agents and their tools.
func TestToolDescriptionListsAgents(t *testing.T) {
	tool := New(Options{Definitions: NewSet(Definition{Name: "explore", Description: "My own explorer", Tools: []string{"read"}})})
	desc := tool.Spec().Description
	for _, want := range []string{"- explore: My own explorer (tools: read)", "- general-purpose:"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q:\n%s", want, desc)
		}
	}
	if !strings.Contains(string(tool.Spec().Parameters), `"enum":["explore","general-purpose"]`) {
		t.Errorf("parameters = %s", tool.Spec().Parameters)
	}
}

func FuzzParseDefinition(f *testing.F) {
	f.Add("---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: sonnet\n---\nbody")
	f.Add("---\nname: a\ndescription: d\ntools:\n  - read\n  - bash\nthinking: low\n---\n")
	f.Add("---\n---\n")
	f.Add("---\nname: db.check\ndescription: d\ndisallowedTools: [Write, Bash(rm:*)]\nhooks:\n  Stop: [{hooks: [{type: command}]}]\n---\n")
	f.Fuzz(func(t *testing.T, text string) {
		d, _, err := parseDefinition("f.md", text)
		if err != nil {
			return
		}
		if !validName(d.Name) || strings.TrimSpace(d.Description) == "" {
			t.Fatalf("accepted %+v", d)
		}
		for _, tool := range append(slices.Clone(d.Tools), d.Disallowed...) {
			if tool == "" {
				t.Fatalf("empty tool name from %q", text)
			}
		}
		for _, tool := range d.Disallowed {
			if d.keeps(tool) {
				t.Fatalf("keeps disallowed %q", tool)
			}
		}
	})
}

// TestLoadFindsSubdirectories: definitions in sub-directories are found, as
// Claude Code finds them (testdata/voltagent keeps its agents in category
// directories, copied from VoltAgent/awesome-claude-code-subagents, MIT);
// a category's README.md is reported, not silently dropped; Claude Code's
// WebFetch and WebSearch, which cairn lacks, are said.
func TestLoadFindsSubdirectories(t *testing.T) {
	defs, problems := Load([]string{filepath.Join("testdata", "voltagent")})
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"code-reviewer", "search-specialist"}) {
		t.Fatalf("names %q, problems %v", names, problems)
	}
	if !slices.Equal(defs[1].Tools, []string{"read", "grep", "find", "WebFetch", "WebSearch"}) {
		t.Errorf("search-specialist tools %q", defs[1].Tools)
	}
	var said []string
	for _, p := range problems {
		said = append(said, p.Error())
	}
	all := strings.Join(said, "\n")
	for _, want := range []string{"1 Markdown file(s) without front matter are not agents: 04-quality-security/README.md",
		"search-specialist.md: tools cairn has no equivalent of: WebFetch, WebSearch"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

// TestClaudeCodeNamesAndDisallowed: Claude Code's tool names map to
// cairn's, disallowedTools is read (a Bash(...) pattern takes the whole
// tool), and a name with "." is accepted.
func TestClaudeCodeNamesAndDisallowed(t *testing.T) {
	d, _, err := parseDefinition("/x/a.md", "---\nname: db.migrator\ndescription: d\n"+
		"tools: [TodoWrite, BashOutput, KillShell, Bash, Read, Agent]\ndisallowedTools: Bash(rm:*), write\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"todo_write", "bash_output", "kill_shell", "bash", "read", ToolName}; !slices.Equal(d.Tools, want) {
		t.Errorf("tools %q, want %q", d.Tools, want)
	}
	if !slices.Equal(d.Disallowed, []string{"bash", "write"}) {
		t.Errorf("disallowed %q", d.Disallowed)
	}
	for name, keep := range map[string]bool{"read": true, "bash": false, "write": false, "todo_write": true, ToolName: false} {
		if d.keeps(name) != keep {
			t.Errorf("keeps(%s) = %v", name, !keep)
		}
	}
	for _, bad := range []string{".", "..", "a b", "a/b"} {
		if validName(bad) {
			t.Errorf("%q accepted as a name", bad)
		}
	}
}
