package skills

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadRealShapes reads front matters copied from public skills
// (testdata/real, each naming its source: github.com/openclaw/skills, MIT)
// in the shapes the old reader skipped and pi 0.87.1 loads (a name with
// spaces too, with a warning), and one pi skips but Claude Code loads (a
// description holding ": ").
func TestReadRealShapes(t *testing.T) {
	for _, c := range []struct {
		dir, name, descPrefix, warning string
		allowed                        []string
	}{
		{dir: "neondb-skill", name: "neondb", descPrefix: "Manage Neon serverless Postgres"},       // metadata: {"openclaw": {...}}
		{dir: "whisper-mlx-local", name: "local-whisper", descPrefix: "Free local speech-to-text"}, // four levels, flow lists inside
		{dir: "whoop-central", name: "whoop", descPrefix: "WHOOP Central - OAuth"},                 // bins: ["node", "openssl"] two levels down
		{dir: "pdf-compress", name: "PDF Compress", descPrefix: "Reduce PDF file size", warning: "has spaces"},
		{dir: "planning-with-files", name: "planning-with-files", descPrefix: "Implements Manus-style",
			allowed: []string{"Read", "Write", "Edit", "Bash", "Glob", "Grep", "WebFetch", "WebSearch"}}, // hooks: block
		{dir: "genlayer", name: "genlayer-claw-skill", descPrefix: "Understand and explain GenLayer - the AI-native blockchain"},
	} {
		sk, problems := Read(filepath.Join("testdata", "real", c.dir, FileName))
		if sk == nil {
			t.Errorf("%s: skipped: %v", c.dir, problems)
			continue
		}
		if sk.Name != c.name || !strings.HasPrefix(sk.Description, c.descPrefix) {
			t.Errorf("%s: name %q description %q", c.dir, sk.Name, sk.Description)
		}
		if c.allowed != nil && !slices.Equal(sk.AllowedTools, c.allowed) {
			t.Errorf("%s: allowed-tools %q, want %q", c.dir, sk.AllowedTools, c.allowed)
		}
		var warnings []string
		for _, p := range problems {
			if !p.Note {
				warnings = append(warnings, p.Error())
			}
		}
		joined := strings.Join(warnings, "\n")
		if c.warning == "" && joined != "" || c.warning != "" && !strings.Contains(joined, c.warning) {
			t.Errorf("%s: warnings %q, want %q", c.dir, joined, c.warning)
		}
	}
}

// TestAllowedToolsForms: a YAML list, commas, or spaces, with a space
// inside a Bash(...) pattern kept.
func TestAllowedToolsForms(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string][]string{
		"allowed-tools: Read, Grep":                    {"Read", "Grep"},
		"allowed-tools: Bash(git add:*) Read":          {"Bash(git add:*)", "Read"},
		"allowed-tools: [Read, \"Bash(npm run *)\"]":   {"Read", "Bash(npm run *)"},
		"allowed-tools:\n  - Read\n  - mcp__github__x": {"Read", "mcp__github__x"},
	} {
		path := filepath.Join(dir, "s", FileName)
		writeFile(t, path, "---\ndescription: d\n"+text+"\n---\nbody\n")
		sk, problems := Read(path)
		if sk == nil || !slices.Equal(sk.AllowedTools, want) {
			t.Errorf("%q: %+v %v, want %q", text, sk, problems, want)
		}
	}
}

// TestCommandFillsArguments: /skill:name args fills $ARGUMENTS,
// $ARGUMENTS[N] (from 0, quotes grouping words), ${CLAUDE_SKILL_DIR} and
// {baseDir} in one pass, leaves $1 (shell) as written, and adds the
// arguments after the block only when the body does not place them.
func TestCommandFillsArguments(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fix", FileName)
	writeFile(t, path, "---\ndescription: d\n---\nFix $ARGUMENTS[0] in $ARGUMENTS[1] ($ARGUMENTS).\n"+
		"Run {baseDir}/x.sh or ${CLAUDE_SKILL_DIR}/y.sh; awk '{print $1}'. Missing: [$ARGUMENTS[5]]\n")
	sk, _ := Read(path)
	got, err := sk.Command(`123 "two words" $ARGUMENTS`)
	if err != nil {
		t.Fatal(err)
	}
	d := filepath.ToSlash(filepath.Join(dir, "fix"))
	want := "Fix 123 in two words (123 \"two words\" $ARGUMENTS).\nRun " + d + "/x.sh or " + d + "/y.sh; awk '{print $1}'. Missing: []\n</skill>"
	if !strings.HasSuffix(got, want) {
		t.Errorf("command:\n%s\nwant suffix:\n%s", got, want)
	}
	plain := filepath.Join(dir, "plain", FileName)
	writeFile(t, plain, "---\ndescription: d\n---\nDo it.\n")
	sk, _ = Read(plain)
	if got, _ := sk.Command("now"); !strings.HasSuffix(got, "Do it.\n</skill>\n\nnow") {
		t.Errorf("arguments not appended: %q", got)
	}
}

// TestStandaloneMarkdownInRoot: as pi, a Markdown file directly in a root
// with a description is a skill (named by the front matter, else the
// root's directory); a README beside the skills is noted, not warned about
// at every start; deeper Markdown files are not skills.
func TestStandaloneMarkdownInRoot(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "quick.md"), "---\nname: quick\ndescription: A one-file skill.\n---\nDo it.\n")
	writeFile(t, filepath.Join(root, "README.md"), "# My skills\n")
	writeFile(t, filepath.Join(root, "deep", "notes.md"), "---\ndescription: not a skill here\n---\n")
	set := Load([]Root{{Path: root, Source: SourceUser, Label: "test"}})
	if got := names(set); !slices.Equal(got, []string{"quick"}) {
		t.Fatalf("skills %q, problems %v", got, set.Problems)
	}
	if len(set.Problems) != 1 || !set.Problems[0].Note || !strings.Contains(set.Problems[0].Error(), "README.md") {
		t.Errorf("problems %+v", set.Problems)
	}
}
