package child

import (
	"slices"
	"testing"
)

func TestEnvKeepsWhatProgramsNeedAndNoSecrets(t *testing.T) {
	vars := map[string]string{"PATH": "/bin", "HOME": "/home/a", "ANTHROPIC_API_KEY": "sk-1", "OPENAI_API_KEY": "sk-2", "LANG": ""}
	got := Env(func(k string) string { return vars[k] })
	want := []string{"HOME=/home/a", "PATH=/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("Env = %v, want %v", got, want)
	}
}
