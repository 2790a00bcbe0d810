package sandbox

import (
	"slices"

	"github.com/cairn-dev/cairn/core/gitrepo"
)

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

// withRepository returns p protecting also the repository the project is
// in now, found again for each command (a few file lookups): a repository
// made by an earlier command of the session (git init) is read-only from
// the next one on. The configuration files git names were found when the
// policy was built.
func (p Policy) withRepository() Policy {
	dirs := gitrepo.Find(p.Project).Dirs()
	var add []string
	for _, d := range dirs {
		d = resolve(d)
		if p.writable(d) && !slices.Contains(p.Protect, d) {
			add = append(add, d)
		}
	}
	if len(add) == 0 {
		return p
	}
	p.Protect = append(slices.Clone(p.Protect), add...)
	return p
}

// ProtectFiles keeps paths read-only in the sandbox too, as the project's
// control files are: the scripts the project's control files (and the
// person's own hooks) run, which trust fingerprints and the approval gate
// guards. Paths outside every writable place are out of reach already.
func (p *Policy) ProtectFiles(paths ...string) {
	for _, f := range paths {
		if f = resolve(f); p.writable(f) {
			p.Protect = appendPath(p.Protect, f)
		}
	}
}
