package approval

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/gitrepo"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// This file asks about writes that change what git runs (see package
// gitrepo for the class): a `.git` entry anywhere, everything in a git
// directory but git's own data, the project's repository's directories
// wherever they are (a linked worktree's, a `.git` file's target), and the
// configuration files and hooks directory git's configuration names.

// gitPlaces are the project's repository's places, found once, when a
// write is first judged.
type gitPlaces struct {
	dirs  []string // git directories, resolved, forward slashes
	named []string // configuration files and the hooks directory, resolved
}

// gitOnce finds the places of the repository dir belongs to.
func gitOnce(dir string) func() gitPlaces {
	return sync.OnceValue(func() gitPlaces {
		var gp gitPlaces
		if dir == "" {
			return gp
		}
		r := gitrepo.Find(dir)
		gp.dirs = resolvedDirs(r.Dirs(), true)
		gp.named = resolvedDirs(r.Named(), true)
		return gp
	})
}

// gitReason returns why writing p (as Subject gives it; abs is its
// absolute form, "" when unknown) changes what git runs, or "".
func (g *Gate) gitReason(p, abs string) string {
	if rel, ok := gitrepo.Split(p); ok {
		if r := gitrepo.Reason(rel); r != "" {
			return gitWrites(p, rel, r)
		}
		return ""
	}
	if abs == "" || g.git == nil {
		return ""
	}
	abs = filepath.ToSlash(toolpath.Resolve(abs, ""))
	places := g.git()
	for _, d := range places.dirs {
		if rel, ok := below(abs, d); ok {
			if r := gitrepo.Reason(rel); r != "" {
				return gitWrites(p, rel, r)
			}
			return ""
		}
	}
	for _, n := range places.named {
		if _, ok := below(abs, n); ok {
			return fmt.Sprintf("writes %s, which git reads as its configuration or runs as a hook", p)
		}
	}
	return ""
}

// gitWrites words a reason: replacing the git directory itself, or
// writing a file in it.
func gitWrites(p, rel, reason string) string {
	if strings.Trim(rel, "/") == "" {
		return fmt.Sprintf("replaces %s, %s", p, reason)
	}
	return fmt.Sprintf("writes %s, %s", p, reason)
}

// below reports whether p is dir or beneath it, and the path from dir.
func below(p, dir string) (string, bool) {
	if p == dir {
		return "", true
	}
	if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(dir, "/")+"/"); ok {
		return rest, true
	}
	return "", false
}

// gitReadConfig are the `git config` options and subcommands that only
// read.
var gitReadConfig = set("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool",
	"-l", "--list", "get", "list")

// gitConfigWrite returns why a command needs the person's say when it is
// `git config` setting or removing a value: git's configuration can name
// programs git runs (core.fsmonitor, core.hooksPath, include.path, ...).
// `git config --edit` opens an editor on the file, so it asks too.
func gitConfigWrite(c command) string {
	args := c.args
	for len(args) > 1 && privileged[args[0].text] {
		args = args[1:]
	}
	if len(args) < 2 {
		return ""
	}
	if name, _ := programName(args[0].text); name != "git" {
		return ""
	}
	i := 1
	for i < len(args) && strings.HasPrefix(args[i].text, "-") {
		switch args[i].text {
		case "-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env":
			i++
		}
		i++
	}
	if i >= len(args) || args[i].text != "config" {
		return ""
	}
	for _, a := range args[i+1:] {
		switch a.text {
		case "-e", "--edit", "edit":
			return "edits git's configuration, which can name programs git runs"
		}
		if gitReadConfig[a.text] {
			return ""
		}
	}
	if len(args[i+1:]) <= 1 {
		// `git config name` reads one value.
		rest := args[i+1:]
		if len(rest) == 0 || !strings.HasPrefix(rest[0].text, "-") {
			return ""
		}
	}
	return "changes git's configuration (git config), which can name programs git runs"
}
