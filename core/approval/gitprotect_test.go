package approval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 38: every line of the corpus's git class asks in every mode but
// yolo, auto (pi's "nothing asks") included, whatever rules were granted,
// and the question says it is about what git runs.
func TestGitClassAsksInEveryMode(t *testing.T) {
	dir := corpusProject(t)
	var lines []corpusLine
	for _, c := range readCorpus(t, "dangerous.txt", true) {
		if c.class == "git" {
			lines = append(lines, c)
		}
	}
	if len(lines) < 25 {
		t.Fatalf("only %d git lines", len(lines))
	}
	for _, mode := range []Mode{ModeDefault, ModeAutoEdit, ModeAuto} {
		for _, c := range lines {
			g := openGate(t, Config{Dir: dir})
			g.SetMode(mode)
			g.remember(c.rules)
			ui := newFakeUI(pick(OptionDeny))
			d := g.Check(context.Background(), bashTool, bashCall(c.line), ui)
			if ui.asked() == 0 || d.Allow {
				t.Errorf("%s (%s): %q ran unasked", c.where, mode, c.line)
				continue
			}
			q := ui.lastSelect()
			if text := q.Title + " " + q.Message; !strings.Contains(text, "git") {
				t.Errorf("%s (%s): %q: the question does not say it is about git: %q", c.where, mode, c.line, text)
			}
		}
	}
}

// The edit tools ask before writing into the git class, even under a rule
// for every file of the project and in auto mode; git's own data does not.
func TestGitClassEdits(t *testing.T) {
	dir := corpusProject(t)
	asks := []string{".git/commondir", ".git", ".git/config.worktree", ".git/info/attributes",
		".git/objects/info/alternates", ".git/hooks/post-checkout", ".git/modules/x/config",
		"sub/nested/.git/config", "sub/.git", ".husky/pre-commit", ".GIT/COMMONDIR", ".git/sequencer/todo",
		".git/branches/origin", ".git/newthing"}
	runs := []string{".git/refs/heads/main", ".git/objects/ab/cdef", ".git/COMMIT_EDITMSG", ".git/index.lock",
		"src/main.go", ".gitignore", ".github/workflows/ci.yml"}
	for _, mode := range []Mode{ModeAutoEdit, ModeAuto} {
		for _, p := range append(asks, runs...) {
			g := openGate(t, Config{Dir: dir})
			g.SetMode(mode)
			ui := newFakeUI(pick(OptionDeny))
			g.Check(context.Background(), editTool, editCall(p), ui)
			want := 0
			for _, a := range asks {
				if a == p {
					want = 1
				}
			}
			if ui.asked() != want {
				t.Errorf("%s: edit %s asked %d times, want %d", mode, p, ui.asked(), want)
			}
		}
	}
}

// A linked worktree's repository lies outside the project: writes there
// are judged by where they land, and the `.git` file is protected.
func TestGitClassLinkedWorktree(t *testing.T) {
	root := t.TempDir()
	main := filepath.Join(root, "main.git")
	wt := filepath.Join(root, "wt")
	for name, text := range map[string]string{
		"main.git/config":                 "[core]\n",
		"main.git/worktrees/wt/gitdir":    wt + "/.git\n",
		"main.git/worktrees/wt/commondir": "../..\n",
		"main.git/worktrees/wt/HEAD":      "ref: refs/heads/x\n",
		"wt/.git":                         "gitdir: " + main + "/worktrees/wt\n",
		"wt/file.txt":                     "x\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{main + "/hooks/pre-commit", main + "/worktrees/wt/commondir", main + "/config", ".git"} {
		g := openGate(t, Config{Dir: wt})
		g.SetMode(ModeAuto)
		ui := newFakeUI(pick(OptionDeny))
		g.Check(context.Background(), editTool, editCall(p), ui)
		if ui.asked() != 1 {
			t.Errorf("edit %s in a linked worktree did not ask", p)
		}
	}
	g := openGate(t, Config{Dir: wt})
	g.SetMode(ModeAuto)
	ui := newFakeUI(pick(OptionDeny))
	if d := g.Check(context.Background(), editTool, editCall(main+"/refs/heads/x"), ui); ui.asked() != 0 || !d.Allow {
		t.Errorf("a ref in the common directory asked in auto mode")
	}
}
