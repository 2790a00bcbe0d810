package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestReason(t *testing.T) {
	data := []string{"objects/ab/cd", "objects/pack/p.pack", "refs/heads/main", "logs/HEAD", "index", "index.lock",
		"HEAD", "ORIG_HEAD", "COMMIT_EDITMSG", "packed-refs", "sharedindex.0123", "rr-cache/x", "lfs/objects/a"}
	control := []string{"", "config", "config.lock", "config.worktree", "hooks/pre-commit", "hooks", "info/attributes",
		"commondir", "gitdir", "objects/info/alternates", "objects/info/http-alternates", "modules/lib/config",
		"worktrees/wt/commondir", "rebase-merge/git-rebase-todo", "sequencer/todo", "branches/origin",
		"remotes/origin", "something-new", "./config", "objects/../config", "objects/info"}
	for _, p := range data {
		if r := Reason(p); r != "" {
			t.Errorf("Reason(%q) = %q, want data", p, r)
		}
	}
	for _, p := range control {
		if Reason(p) == "" {
			t.Errorf("Reason(%q) = \"\", want a reason", p)
		}
	}
}

func TestPathReason(t *testing.T) {
	for p, want := range map[string]bool{
		".git": true, "a/b/.git": true, ".GIT/config": true, "sub/.git/hooks/x": true, ".git/refs/x": false,
		".gitignore": false, "git/config": false, "a/.github/x": false,
	} {
		if got := PathReason(p) != ""; got != want {
			t.Errorf("PathReason(%q) = %v, want %v", p, got, want)
		}
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"repo/.git/HEAD":                  "ref: refs/heads/main\n",
		"repo/src/a.go":                   "",
		"main.git/worktrees/wt/commondir": "../..\n",
		"wt/.git":                         "gitdir: ../main.git/worktrees/wt\n",
		"wt/deep/x":                       "",
		"plain/x":                         "",
	})
	r := Find(filepath.Join(root, "repo", "src"))
	if r.Entry != filepath.Join(root, "repo", ".git") || r.GitDir != r.Entry || r.CommonDir != r.Entry {
		t.Errorf("repo: %+v", r)
	}
	r = Find(filepath.Join(root, "wt", "deep"))
	if r.Entry != filepath.Join(root, "wt", ".git") || r.GitDir != filepath.Join(root, "main.git", "worktrees", "wt") ||
		r.CommonDir != filepath.Join(root, "main.git") {
		t.Errorf("worktree: %+v", r)
	}
	if got := len(r.Dirs()); got != 3 {
		t.Errorf("worktree dirs: %v", r.Dirs())
	}
}

// Named asks git itself: the local configuration, files it includes and
// the hooks directory core.hooksPath names.
func TestNamed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	cmd := exec.Command("git", "init", "-q", repo)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	write(t, root, map[string]string{"repo/extra.cfg": "[alias]\n\tx = !true\n"})
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[core]\n\thooksPath = .husky\n[include]\n\tpath = ../extra.cfg\n")
	f.Close()
	t.Setenv("GIT_DIR", "/nonexistent") // must not steer the answer
	named := strings.Join(Find(repo).Named(), "\n")
	for _, want := range []string{filepath.Join(repo, ".husky"), filepath.Join(repo, "extra.cfg"), filepath.Join(repo, ".git", "config")} {
		if !strings.Contains(named, want) {
			t.Errorf("Named lacks %s:\n%s", want, named)
		}
	}
}

func FuzzReason(f *testing.F) {
	for _, s := range []string{"", "config", "objects/info/alternates", "refs/../hooks/x", "a/.git/b", ".GiT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		r := Reason(p)
		// Whatever leads out of the data by "..", never counts as data.
		if strings.Contains(p, "..") && r == "" {
			clean := filepath.ToSlash(filepath.Clean("/" + p))
			if Reason(strings.TrimPrefix(clean, "/")) != "" {
				t.Errorf("Reason(%q) is data but its clean form is not", p)
			}
		}
		if rel, ok := Split(p); ok && PathReason(p) != Reason(rel) {
			t.Errorf("PathReason(%q) differs from Reason(%q)", p, rel)
		}
	})
}

func FuzzParseOrigins(f *testing.F) {
	f.Add([]byte("file:.git/config\x00core.hookspath\n.husky\x00file:/x\x00include.path\n../y\x00"))
	f.Add([]byte("command line:\x00a.b\nc\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range parseOrigins(data, "/w") {
			if !filepath.IsAbs(p) {
				t.Errorf("relative %q", p)
			}
		}
	})
}

// A bare repository is found as git finds it: the directory itself.
func TestFindBare(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"lib.git/HEAD": "ref: refs/heads/main\n", "lib.git/config": "[core]\n\tbare = true\n",
		"lib.git/hooks/x": ""})
	r := Find(filepath.Join(root, "lib.git", "hooks"))
	if r.Entry != filepath.Join(root, "lib.git") || r.GitDir != r.Entry || r.Worktree != "" {
		t.Errorf("bare: %+v", r)
	}
	if !IsGitDir(filepath.Join(root, "lib.git")) || IsGitDir(root) {
		t.Error("IsGitDir")
	}
}
