package pi

import (
	"context"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/core/child"
)

// rpc bash sees none of cairn's keys unless the settings pass one.
func TestExecBashSeesNoKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("GITHUB_TOKEN", "gh-test-secret")
	line := `echo "[$OPENAI_API_KEY][$GITHUB_TOKEN]"; cat /proc/self/environ | tr '\0' '\n' | grep -c test-secret || true`
	res, err := (&ExecBash{Dir: t.TempDir()}).Run(context.Background(), line, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "[][]\n0\n" {
		t.Errorf("output %q, want no key", res.Output)
	}
	env := child.EnvPolicy{Passthrough: []string{"GITHUB_TOKEN"}}.Environ(os.Environ(), nil)
	res, err = (&ExecBash{Dir: t.TempDir(), Env: env}).Run(context.Background(), line, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "[][gh-test-secret]\n1\n" {
		t.Errorf("output %q, want the token passed and the key not", res.Output)
	}
}
