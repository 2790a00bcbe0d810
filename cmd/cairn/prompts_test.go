package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintModeExpandsPromptTemplates: `cairn -p "/name args"` sends the
// template's text, from the person's prompts or (once the project is
// trusted) the project's.
func TestPrintModeExpandsPromptTemplates(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(home, "prompts", "review.md"), "---\ndescription: Review\n---\nReview $1 for ${2:-bugs}.")
	writeFile(t, filepath.Join(project, ".cairn", "prompts", "deploy.md"), "Deploy to $@.")
	script := writeScript(t, `{"responses": [{"text": "ok"}]}`)
	for _, c := range []struct {
		prompt, want string
		trust        bool
	}{
		{`/review "the parser"`, `"text":"Review the parser for bugs."`, false},
		{"/deploy staging eu", `"text":"/deploy staging eu"`, false},
		{"/deploy staging eu", `"text":"Deploy to staging eu."`, true},
		{"/nothing here", `"text":"/nothing here"`, false},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			args := []string{"--provider", "faux", "--no-session", "--mode", "json", "-p", c.prompt}
			if c.trust {
				args = append(args, "--trust-project")
			}
			r := invoke(t, map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script}, nil, args...)
			if r.code != 0 {
				t.Fatalf("%+v", r)
			}
			if !strings.Contains(r.stdout, `"role":"user","content":[{"type":"text",`+c.want) {
				t.Errorf("the user message is not %s:\n%s", c.want, r.stdout)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
