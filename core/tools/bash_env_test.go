package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/child"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// keyProbe prints the key as the shell sees it and counts the processes'
// environment entries holding it.
const keyProbe = `echo "[$OPENAI_API_KEY]"; cat /proc/self/environ | tr '\0' '\n' | grep -c test-secret || true`

// The model's commands see none of cairn's keys, sandboxed or not.
func TestBashCommandsSeeNoKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-test-secret")
	b := newTestBash(t)
	if got := text(run(t, b, map[string]any{"command": keyProbe})); got != "[]\n0\n" {
		t.Errorf("unsandboxed: %q, want no key", got)
	}
	sandboxtest.Require(t)
	p, err := sandbox.Config{Enabled: true}.Policy(sandbox.Place{Project: b.Dir})
	if err != nil {
		t.Fatal(err)
	}
	b.Sandbox = &p
	if got := text(run(t, b, map[string]any{"command": keyProbe})); got != "[]\n0\n" {
		t.Errorf("sandboxed: %q, want no key", got)
	}
}

// What the person's settings pass reaches the command.
func TestBashPassesWhatSettingsPass(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "gh-test-secret")
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	b := newTestBash(t)
	b.Env = child.EnvPolicy{Passthrough: []string{"GITHUB_TOKEN"}}.Environ(os.Environ(), []string{"OPENAI_API_KEY"})
	got := text(run(t, b, map[string]any{"command": `echo "[$GITHUB_TOKEN][$OPENAI_API_KEY]"`}))
	if got != "[gh-test-secret][]\n" {
		t.Errorf("got %q, want the token passed and the key not", got)
	}
	if strings.Contains(text(run(t, b, map[string]any{"command": "env"})), "sk-test-secret") {
		t.Error("the key reached the command")
	}
}
