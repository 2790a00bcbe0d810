package approval

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/gitrepo"
)

// This file finds what in a command line needs the person's say whatever
// the rules, as edits of protected files do: a file the line writes that is
// protected (see protectedReason), and git run in a repository other than
// the project's, whose configuration (core.fsmonitor, core.pager, hooks)
// can name programs git runs. A hostile project can ship such a repository
// (`vendor/lib.git`), and `cd vendor/lib.git && git status` would run its
// programs under a rule for `git status`.

// commandReason returns why line needs the person's say whatever the
// rules, as the question's warning says it ("writes .git/config, git's
// configuration, ..."), or "" when nothing does.
func (g *Gate) commandReason(line string) string {
	a := survey(line)
	for _, w := range a.writes {
		for _, p := range writtenPaths(w) {
			if reason := g.protectedReason(g.relPath(p)); reason != "" {
				return reason
			}
		}
	}
	for _, c := range a.cmds {
		if reason := g.foreignRepository(c); reason != "" {
			return reason
		}
		if reason := gitConfigWrite(c); reason != "" {
			return reason
		}
	}
	return ""
}

// writtenPaths returns where a written file may be: its path in the
// directory it is written from, and, when that directory is unknown, the
// path as if from the project. Names the line does not show give none.
func writtenPaths(w written) []string {
	if !w.path.fixed() && !w.path.home {
		return nil
	}
	p := w.path.text
	switch {
	case p == "" || w.path.home || path.IsAbs(p):
		return []string{p}
	case w.dir == dirUnknown:
		return []string{p}
	}
	return []string{path.Join(w.dir, p)}
}

// foreignRepository returns why a git command needs the person's say: it
// runs in a directory (after cd, env -C, git -C) whose repository is not
// the project's, or names another git directory (--git-dir).
func (g *Gate) foreignRepository(c command) string {
	args := c.args
	for len(args) > 1 && privileged()[args[0].text] {
		args = args[1:]
	}
	if len(args) == 0 || c.dir == dirUnknown {
		// Where no rule holds, so the person is asked anyway.
		return ""
	}
	if name, system := programName(args[0].text); name != "git" || !system {
		return ""
	}
	dir, gitDir, ok := gitLocation(c.dir, args[1:])
	if !ok {
		return "runs git in a directory the command line does not show, which may be a repository with a configuration of its own (it can name programs git runs)"
	}
	if dir == "." && gitDir == "" {
		return ""
	}
	where := dir
	if gitDir != "" {
		where = gitDir
	}
	if g.dir == "" {
		return fmt.Sprintf("runs git in %s, which cairn cannot check for a repository with a configuration of its own (it can name programs git runs)", where)
	}
	project := repositoryOf(g.dir)
	var repo string
	if gitDir != "" {
		repo = realPath(g.inProject(gitDir))
	} else {
		repo = repositoryOf(g.inProject(dir))
	}
	if repo == project {
		return ""
	}
	return fmt.Sprintf("runs git in %s, a repository with its own configuration, which can name programs git runs", where)
}

// inProject returns a directory as the analysis names it (relative to the
// gate's directory unless absolute) as a path of this system.
func (g *Gate) inProject(dir string) string {
	if path.IsAbs(dir) {
		return filepath.FromSlash(dir)
	}
	return filepath.Join(g.dir, filepath.FromSlash(dir))
}

// gitLocation reads git's options before its subcommand: the directory it
// runs in (dir with each -C applied) and the git directory it is given
// (--git-dir), both relative to the project unless absolute. ok is false
// when one of them is not a literal.
func gitLocation(dir string, args []word) (runDir, gitDir string, ok bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if !strings.HasPrefix(t, "-") {
			break
		}
		var value *word
		switch {
		case (t == "-C" || t == "--git-dir") && i+1 < len(args):
			i++
			value = &args[i]
		case strings.HasPrefix(t, "--git-dir="):
			v := valueWord(args[i], len("--git-dir="))
			value, t = &v, "--git-dir"
		default:
			if !args[i].fixed() {
				return "", "", false
			}
			continue
		}
		next := chdir(dir, *value)
		if next == dirUnknown {
			return "", "", false
		}
		if t == "-C" {
			dir = next
		} else {
			gitDir = next
		}
	}
	return dir, gitDir, true
}

// repositoryOf returns the git directory git uses when run in dir: the
// first directory from dir up that is one (a bare repository) or holds
// .git, with symlinks resolved; "" when there is none.
func repositoryOf(dir string) string {
	r := gitrepo.Find(realPath(dir))
	if r.Entry == "" {
		return ""
	}
	if fi, err := os.Lstat(r.Entry); err == nil && fi.Mode().IsRegular() {
		// A gitfile ("gitdir: path") names the repository; any such
		// file is a repository of its own.
		return r.Entry
	}
	return realPath(r.Entry)
}

// realPath returns p absolute with symlinks resolved, as far as they
// exist.
func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}
