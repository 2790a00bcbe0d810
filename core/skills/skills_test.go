package skills

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skill(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body
}

// layout is a home directory with cairn's and other agents' skill
// directories, and a project with its own.
func layout(t *testing.T) (home, project string) {
	home, project = filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(home, ".cairn/skills/mine/SKILL.md"), skill("mine", "My own skill.", "mine body"))
	writeFile(t, filepath.Join(home, ".cairn/skills/shared/SKILL.md"), skill("shared", "The person's shared.", "user body"))
	writeFile(t, filepath.Join(home, ".claude/skills/x/SKILL.md"), skill("x", "Claude's x.", "x body"))
	writeFile(t, filepath.Join(home, ".pi/agent/skills/group/deep/SKILL.md"), skill("deep", "Nested.", "deep body"))
	writeFile(t, filepath.Join(project, ".cairn/skills/shared/SKILL.md"), skill("shared", "The project's shared.", "project body"))
	writeFile(t, filepath.Join(project, ".agents/skills/proj/SKILL.md"), skill("proj", "Project skill.", "proj body"))
	writeFile(t, filepath.Join(project, ".claude/skills/bad/SKILL.md"), "---\nname: bad\n---\nno description\n")
	return home, project
}

func names(s Set) []string {
	var out []string
	for _, sk := range s.Skills {
		out = append(out, sk.Name)
	}
	return out
}

func TestLoadOrderDuplicatesAndProblems(t *testing.T) {
	home, project := layout(t)
	set := Load(Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), Project: project, OtherAgents: true}))
	if want := []string{"mine", "shared", "x", "deep", "proj"}; !slices.Equal(names(set), want) {
		t.Errorf("skills %q, want %q", names(set), want)
	}
	if len(set.Hidden) != 1 || set.Hidden[0].Skill.Description != "The project's shared." || set.Hidden[0].By.Source != SourceUser {
		t.Errorf("hidden %+v", set.Hidden)
	}
	if len(set.Problems) != 1 || !set.Problems[0].Skipped || !strings.Contains(set.Problems[0].Error(), "description is required") {
		t.Errorf("problems %v", set.Problems)
	}
	sk, _ := set.Find("x")
	if sk.Root != "~/.claude/skills" || sk.Source != SourceUser || sk.Dir != filepath.Join(home, ".claude/skills/x") {
		t.Errorf("x = %+v", sk)
	}
}

func TestOtherAgentsOffAndUntrustedProject(t *testing.T) {
	home, project := layout(t)
	set := Load(Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), Project: project}))
	if want := []string{"mine", "shared"}; !slices.Equal(names(set), want) {
		t.Errorf("otherAgentDirs off: %q, want %q", names(set), want)
	}
	set = Load(Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), OtherAgents: true}))
	for _, sk := range set.Skills {
		if sk.Source == SourceProject {
			t.Errorf("untrusted project's skill %s loaded", sk.Name)
		}
	}
}

func TestReadValidation(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		skipped    bool
		warning    string
	}{
		{"ok", skill("ok", "Fine.", "b"), false, ""},
		{"Upper", skill("Upper_Case", "Fine.", "b"), false, "lower-case"},
		{"dash", skill("-a--b", "Fine.", "b"), false, "hyphen"},
		{"long", skill("long", strings.Repeat("d", MaxDescription+1), "b"), false, "longer than 1024"},
		{"unknown", "---\nname: unknown\ndescription: d\nfoo: bar\n---\n", false, `key "foo"`},
		{"claude", "---\nname: claude\ndescription: d\nargument-hint: '[x]'\nallowed-tools: Read\n---\n", false, ""},
		{"space", skill("has space", "d", "b"), false, "lower-case"},
		{"control", "---\nname: \"a\\x1bb\"\ndescription: d\n---\n", true, "control characters"},
		{"nofront", "# just markdown\n", true, "no front matter"},
		{"broken", "---\ndescription: d\n- x\n---\n", true, "line 2: did not find expected key"},
		{"numeric", "---\ndescription: 42\n---\n", true, "description is required"},
		{"empty", skill("empty", "''", "b"), true, "description is required"},
	} {
		path := filepath.Join(dir, c.name, FileName)
		writeFile(t, path, c.text)
		sk, problems := Read(path)
		if (sk == nil) != c.skipped {
			t.Errorf("%s: skill %+v, problems %v", c.name, sk, problems)
			continue
		}
		if c.warning == "" && len(problems) > 0 || c.warning != "" && (len(problems) == 0 || !strings.Contains(problems[0].Error(), c.warning)) {
			t.Errorf("%s: problems %v, want %q", c.name, problems, c.warning)
		}
	}
	// The directory names a skill whose front matter does not.
	path := filepath.Join(dir, "from-dir", FileName)
	writeFile(t, path, "---\ndescription: d\n---\n")
	if sk, _ := Read(path); sk == nil || sk.Name != "from-dir" {
		t.Errorf("unnamed skill: %+v", sk)
	}
}

func TestSearchLinksAndLimits(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a/SKILL.md"), skill("a", "d", "b"))
	// A link back to the root leads in a circle; a link to a skill is
	// the same skill.
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, ".hidden/SKILL.md"), skill("hidden", "d", "b"))
	writeFile(t, filepath.Join(root, "node_modules/m/SKILL.md"), skill("m", "d", "b"))
	set := Load([]Root{{Path: root, Source: SourceUser, Label: "r"}})
	if !slices.Equal(names(set), []string{"a"}) || len(set.Hidden) != 0 {
		t.Errorf("skills %q hidden %v", names(set), set.Hidden)
	}
}

func TestPromptListsNameDescriptionPathOnly(t *testing.T) {
	home, _ := layout(t)
	set := Load(Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), OtherAgents: true}))
	p := set.Prompt()
	for _, want := range []string{"<name>x</name>", "<description>Claude&apos;s x.</description>",
		"<location>" + filepath.ToSlash(filepath.Join(home, ".claude/skills/x/SKILL.md")) + "</location>", "read tool"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "x body") || strings.Contains(p, "mine body") {
		t.Errorf("prompt holds a skill's body:\n%s", p)
	}
	if (Set{}).Prompt() != "" {
		t.Error("no skills, yet a prompt")
	}
	hidden := Set{Skills: []Skill{{Name: "h", Description: "d", ModelHidden: true}}}
	if hidden.Prompt() != "" {
		t.Error("a disable-model-invocation skill is in the prompt")
	}
}

func TestCommand(t *testing.T) {
	home, _ := layout(t)
	set := Load(Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), OtherAgents: true}))
	ts := set.Templates()
	text, ok := ts.Expand("/skill:x fix   the \"bug\"")
	path := filepath.ToSlash(filepath.Join(home, ".claude/skills/x/SKILL.md"))
	want := "<skill name=\"x\" location=\"" + path + "\">\nReferences are relative to " + filepath.ToSlash(filepath.Dir(path)) +
		".\n\nx body\n</skill>\n\nfix   the \"bug\""
	if !ok || text != want {
		t.Errorf("expand = %v %q\nwant %q", ok, text, want)
	}
	if !IsCommand(ts[0]) {
		t.Error("IsCommand false for a skill's template")
	}
	// A skill whose file went away is sent as typed, as pi does.
	if err := os.Remove(filepath.Join(home, ".claude/skills/x/SKILL.md")); err != nil {
		t.Fatal(err)
	}
	if text, ok := ts.Expand("/skill:x go"); ok || text != "/skill:x go" {
		t.Errorf("missing file: %v %q", ok, text)
	}
}
