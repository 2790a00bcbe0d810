package bashmode

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell"
)

func TestInteractive(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{"vim main.go", true},
		{"/usr/bin/nvim", true},
		{"less README.md", true},
		{"git log | less", true},
		{"make && htop", true},
		{"man 2 open", true},
		{"watch -n1 date", true},
		{"ssh host", true},
		{"tmux attach", true},
		{"fzf", true},
		{"lazygit", true},
		{"EDITOR=vim GIT_DIR=x vim file", true},
		{"sudo vim /etc/hosts", true},
		{"sudo -u root nano /etc/hosts", true},
		{"sudo -i", true},
		{"env -i TERM=xterm top", true},
		{"nice -n 10 htop", true},
		{"python", true},
		{"python3", true},
		{"psql", true},
		{"git commit", true},
		{"git commit --amend", true},
		{"git -C repo commit -a", true},
		{"git rebase -i HEAD~3", true},
		{"git add -p", true},
		{"git stash --patch", true},

		{"ls -la", false},
		{"echo vim", false},
		{"grep 'vim|less' notes.txt", false},
		{"python script.py", false},
		{"node -e 'console.log(1)'", false},
		{"bash -c 'echo hi'", false},
		{"git log", false},
		{"git diff HEAD", false},
		{"git commit -m 'fix'", false},
		{"git commit -am fix", false},
		{"git commit --message=fix", false},
		{"git commit --no-edit --amend", false},
		{"git commit -F msg.txt", false},
		{"git rebase main", false},
		{"git add .", false},
		{"sudo apt-get install -y curl", false},
		{"cargo build --release", false},
		{"", false},
		{"FOO=1", false},
	}
	for _, tt := range tests {
		if got := Interactive(tt.command); got != tt.want {
			t.Errorf("Interactive(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

func TestSplitCommands(t *testing.T) {
	got := splitCommands(`a "b c" 'd|e' f\ g | h; i && j (k) $(l)`)
	want := [][]string{{"a", "b c", "d|e", "f g"}, {"h"}, {"i"}, {"j"}, {"k"}, {"$"}, {"l"}}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("command %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestCommand(t *testing.T) {
	cmd := Command("vim x", Options{Dir: "/tmp", Shell: "/bin/zsh"})
	if want := []string{"/bin/zsh", "-c", "vim x"}; !slices.Equal(cmd.Args[len(cmd.Args)-3:], want) {
		t.Errorf("args %q, want them to end in %q", cmd.Args, want)
	}
	if cmd.Dir != "/tmp" || !slices.Equal(cmd.Env, shell.DefaultEnv()) {
		t.Errorf("dir %q env %v, want /tmp and cairn's environment without its secrets", cmd.Dir, cmd.Env)
	}
}

// An interactive `!cmd` gets neither cairn's keys nor other credentials;
// the base environment the settings made is used as given.
func TestCommandEnvironmentHasNoSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("GITHUB_TOKEN", "ghp-test-secret")
	for _, kv := range Command("env", Options{}).Env {
		if strings.Contains(kv, "test-secret") {
			t.Errorf("environment holds %s", kv)
		}
	}
	base := []string{"GITHUB_TOKEN=passed"}
	if got := Command("env", Options{BaseEnv: base}).Env; !slices.Equal(got, base) {
		t.Errorf("env %q, want %q", got, base)
	}
}

func TestPTYEnv(t *testing.T) {
	t.Setenv("TERM", "dumb")
	t.Setenv("PAGER", "less")
	env := Options{}.ptyEnv()
	for _, want := range []string{"TERM=xterm-256color", "PAGER=cat", "GIT_PAGER=cat"} {
		if !slices.Contains(env, want) {
			t.Errorf("environment lacks %s", want)
		}
	}
	if slices.Contains(env, "TERM=dumb") || slices.Contains(env, "PAGER=less") {
		t.Error("inherited TERM or PAGER kept")
	}
	if len(env) < len(os.Environ()) {
		t.Error("inherited variables lost")
	}

	given := Options{Env: []string{"A=1"}}.ptyEnv()
	if want := []string{"A=1", "TERM=xterm-256color"}; !slices.Equal(given, want) {
		t.Errorf("explicit env became %q, want %q", given, want)
	}
	own := Options{Env: []string{"TERM=screen"}}.ptyEnv()
	if want := []string{"TERM=screen"}; !slices.Equal(own, want) {
		t.Errorf("explicit TERM became %q, want %q", own, want)
	}
}
