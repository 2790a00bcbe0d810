// Package gitrepo knows which files change what git runs: the class of
// paths that the approval gate asks about and the sandbox keeps read-only,
// so that nothing a command or the model writes in a project runs as a
// program the next time the person (or cairn) runs git.
//
// The class, from git's own documentation (gitrepository-layout(5),
// git-config(1), githooks(5), git-worktree(1)):
//   - a `.git` entry itself, directory or file: replacing it, or writing a
//     `gitdir:` line into a `.git` file, picks another repository, with its
//     configuration and hooks;
//   - inside a git directory everything but the data git writes for itself
//     (objects, refs, logs, the index, HEAD and the other *_HEAD files,
//     messages): `config`, `config.worktree`, `hooks/`, `info/`,
//     `commondir`, `gitdir`, `objects/info/alternates` and
//     `http-alternates`, `modules/` (submodules' repositories),
//     `worktrees/`, `branches/`, `remotes/`, and the rebase and sequencer
//     state (`rebase-merge/git-rebase-todo` holds `exec` lines);
//   - every file git reads configuration from for the repository (local,
//     worktree, included with include.path or includeIf) and the hooks
//     directory core.hooksPath names, wherever they are.
//
// Data is allowed by name and everything else is in the class, so a file
// git adds in a later version is protected until it is known to be data.
package gitrepo

import (
	"path"
	"strings"
)

// dataNames are the entries at the top of a git directory that hold only
// data git writes for itself: writing them changes history, never what git
// runs. Their ".lock" forms are data too.
var dataNames = map[string]bool{
	"objects": true, "refs": true, "logs": true, "index": true, "HEAD": true, "packed-refs": true,
	"ORIG_HEAD": true, "FETCH_HEAD": true, "MERGE_HEAD": true, "MERGE_MSG": true, "MERGE_MODE": true,
	"MERGE_RR": true, "CHERRY_PICK_HEAD": true, "REVERT_HEAD": true, "REBASE_HEAD": true,
	"AUTO_MERGE": true, "BISECT_HEAD": true, "COMMIT_EDITMSG": true, "SQUASH_MSG": true,
	"TAG_EDITMSG": true, "NOTES_EDITMSG": true, "EDIT_DESCRIPTION": true, "description": true,
	"shallow": true, "rr-cache": true, "lfs": true, "gc.pid": true, "gc.log": true, "lost-found": true,
	"gitk.cache": true, "FETCH_PACK": true,
}

// IsDataName reports whether name, an entry at the top of a git directory,
// holds only data (see dataNames); "sharedindex.<hash>" files are data.
func IsDataName(name string) bool {
	name = strings.TrimSuffix(name, ".lock")
	return dataNames[name] || strings.HasPrefix(name, "sharedindex.")
}

// Reason says why writing rel, a slash-separated path inside a git
// directory ("config", "hooks/pre-commit", "objects/info/alternates"),
// changes what git runs, or returns "" when rel is data. An empty rel is
// the git directory itself.
func Reason(rel string) string {
	rel = strings.Trim(path.Clean("/"+rel), "/")
	if rel == "" {
		return "which decides the repository git uses, with its configuration and hooks"
	}
	first, rest, _ := strings.Cut(rel, "/")
	switch {
	case first == "objects":
		if r, _, _ := strings.Cut(rest, "/"); r == "info" {
			return "git's list of other object stores (alternates), which git reads as its own"
		}
		return ""
	case IsDataName(first):
		return ""
	case first == "hooks":
		return "a git hook that git runs as a program"
	case first == "config" || first == "config.worktree":
		return "git's configuration, which can name programs git runs"
	case first == "commondir" || first == "gitdir":
		return "a pointer to the directory git takes its configuration and hooks from"
	case first == "info":
		return "git's per-repository attributes and excludes, which select filters and drivers"
	case first == "modules" || first == "worktrees":
		return "another repository's git directory, with its own configuration and hooks"
	case first == "rebase-merge" || first == "rebase-apply" || first == "sequencer":
		return "git's pending rebase steps, which can run commands (exec)"
	}
	return "a file in git's own directory, where only git's data may change unasked"
}

// Split finds a `.git` component (in any case, as case-insensitive file
// systems match it) in p, a slash-separated path, and returns what lies
// below it. ok is false when p has no `.git` component.
func Split(p string) (rel string, ok bool) {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if strings.EqualFold(part, ".git") {
			return strings.Join(parts[i+1:], "/"), true
		}
	}
	return "", false
}

// PathReason says why writing p, a slash-separated path, changes what git
// runs, judged by its first `.git` component ("" when it has none, or
// what it writes there is data).
func PathReason(p string) string {
	rel, ok := Split(p)
	if !ok {
		return ""
	}
	return Reason(rel)
}
