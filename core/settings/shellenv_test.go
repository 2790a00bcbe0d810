package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/child"
)

// The project's file narrows the environment commands get and can never
// pass more: its passthrough and set entries are dropped and reported.
func TestShellEnvironmentProjectOnlyNarrows(t *testing.T) {
	dir := t.TempDir()
	global, project := filepath.Join(dir, "global.json"), filepath.Join(dir, "project.json")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(global, `{"shellEnvironment": {"inherit": "core", "passthrough": ["GITHUB_TOKEN"], "set": {"CI": "1"}}}`)
	write(project, `{"shellEnvironment": {"inherit": "all", "exclude": ["DATABASE_URL"],
		"passthrough": ["GITHUB_TOKEN", "OPENAI_API_KEY"], "set": {"BASH_ENV": "/tmp/x", "CI": "1"}}}`)
	st, err := Load(global, project)
	if err == nil || !strings.Contains(err.Error(), "ignored: passthrough OPENAI_API_KEY, set BASH_ENV") {
		t.Errorf("Load error = %v, want the widening reported", err)
	}
	p := st.ShellEnvironment()
	if p.Inherit != child.InheritCore || !slices.Equal(p.Exclude, []string{"DATABASE_URL"}) ||
		!slices.Equal(p.Passthrough, []string{"GITHUB_TOKEN"}) || len(p.Set) != 1 || p.Set["CI"] != "1" {
		t.Errorf("policy = %+v", p)
	}
	env := p.Environ([]string{"OPENAI_API_KEY=sk", "GITHUB_TOKEN=gh", "PATH=/bin", "DATABASE_URL=x"}, nil)
	if want := []string{"GITHUB_TOKEN=gh", "PATH=/bin", "CI=1"}; !slices.Equal(env, want) {
		t.Errorf("environment %q, want %q", env, want)
	}

	// A project asking for less than the person: its narrower inherit wins.
	write(global, `{}`)
	write(project, `{"shellEnvironment": {"inherit": "none"}}`)
	if st, err = Load(global, project); err != nil {
		t.Fatal(err)
	}
	if got := st.ShellEnvironment().Inherit; got != child.InheritNone {
		t.Errorf("inherit = %q, want none", got)
	}
}

// Bad values are refused with a message naming what is known; the secure
// default stays in force.
func TestShellEnvironmentRefusesBadValues(t *testing.T) {
	st, err := Load("", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value any
		want  string
	}{
		{map[string]any{"passthru": []string{"X"}}, `unknown field "passthru"`},
		{map[string]any{"inherit": "some"}, `"some" is not allowed`},
		{map[string]any{"exclude": []string{"[A"}}, `"[A" is not a valid pattern`},
		{map[string]any{"set": map[string]string{"A=B": "1"}}, `"A=B" is not a variable name`},
	} {
		if err := st.Set(shellEnvKey, tc.value, ScopeSession); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.value, err, tc.want)
		}
	}
	if p := st.ShellEnvironment(); p.Inherit != "" || len(p.Passthrough) != 0 {
		t.Errorf("policy after refusals = %+v, want the default", p)
	}
	if err := st.Set(shellEnvKey+".passthrough", []string{"GITHUB_TOKEN"}, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if p := st.ShellEnvironment(); !slices.Equal(p.Passthrough, []string{"GITHUB_TOKEN"}) {
		t.Errorf("policy = %+v, want GITHUB_TOKEN passed", p)
	}
}
