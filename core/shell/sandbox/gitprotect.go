package sandbox

import "github.com/cairn-dev/cairn/core/gitrepo"

// gitPaths returns everything of the project's repository that
// changes what git runs (see package gitrepo): the `.git` entry whole,
// directory or file (mounted over itself read-only, it can be neither
// written nor moved away and replaced), the git directories it leads to,
// and the configuration files and hooks directory git's configuration
// names. A command in the sandbox still reads the repository (git status,
// git log, git diff) but cannot write it: git commit and the like run
// outside the sandbox, which asks.
func gitPaths(project string) []string {
	r := gitrepo.Find(project)
	var out []string
	for _, p := range append(r.Dirs(), r.Named()...) {
		out = appendPath(out, resolve(p))
	}
	return out
}
