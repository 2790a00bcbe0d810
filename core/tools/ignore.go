package tools

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/regfile"
)

// ignoreFileNames are the files of ignore rules read in each directory, in
// rising precedence: git's, then the .ignore that ripgrep and fd also read.
var ignoreFileNames = [...]string{".gitignore", ".ignore"}

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	glob     *glob
	negate   bool // "!pattern": re-include what an earlier rule excluded
	dirOnly  bool // "pattern/": matches directories only
	anchored bool // has a slash: matched against the path from the file's directory, else the name
}

// ignoreList is the rules of one ignore file, applying below base, linked
// to the lists of the directories above it.
type ignoreList struct {
	base   string // absolute directory the rules are relative to
	rules  []ignoreRule
	parent *ignoreList
}

// ignored reports whether the entry at abs (named name) is excluded. The
// deepest list with a matching rule decides, and within a list the last
// matching rule, as in git.
func (l *ignoreList) ignored(abs, name string, isDir bool) bool {
	for ; l != nil; l = l.parent {
		rel := strings.TrimPrefix(abs, l.base)
		rel = strings.TrimPrefix(rel, "/")
		for i := len(l.rules) - 1; i >= 0; i-- {
			r := &l.rules[i]
			if r.dirOnly && !isDir {
				continue
			}
			subject := name
			if r.anchored {
				subject = rel
			}
			if r.glob.match(subject) {
				return !r.negate
			}
		}
	}
	return false
}

// maxIgnoreFile bounds one ignore file; rules past it are not read.
const maxIgnoreFile = 4 << 20

// withFile returns the list extended by the rules of the ignore file at
// path (relative to dir), or l itself when there are none. Only a regular
// file is read (see regfile): a named pipe by the name of .gitignore in a
// searched tree must not hang the search.
func (l *ignoreList) withFile(dir, path string) *ignoreList {
	data, err := regfile.Read(path, maxIgnoreFile)
	if err != nil && !errors.Is(err, regfile.ErrTooLarge) {
		return l
	}
	rules := parseIgnore(data)
	if len(rules) == 0 {
		return l
	}
	return &ignoreList{base: dir, rules: rules, parent: l}
}

// withDir returns the list extended by the ignore files of dir.
func (l *ignoreList) withDir(dir string) *ignoreList {
	for _, name := range ignoreFileNames {
		l = l.withFile(dir, filepath.Join(dir, name))
	}
	return l
}

// parseIgnore reads gitignore syntax. Lines that do not compile are
// skipped, as git skips them.
func parseIgnore(data []byte) []ignoreRule {
	var rules []ignoreRule
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		p := strings.TrimSuffix(string(line), "\r")
		p = trimUnescapedSpaces(p)
		if p == "" || p[0] == '#' {
			continue
		}
		var r ignoreRule
		if p[0] == '!' {
			r.negate, p = true, p[1:]
		}
		if strings.HasSuffix(p, "/") {
			r.dirOnly, p = true, strings.TrimRight(p, "/")
		}
		if strings.Contains(p, "/") {
			r.anchored, p = true, strings.TrimPrefix(p, "/")
		}
		if p == "" {
			continue
		}
		g, err := compileGlob(p, globOptions{})
		if err != nil {
			continue
		}
		r.glob = g
		rules = append(rules, r)
	}
	return rules
}

// trimUnescapedSpaces drops trailing spaces unless a backslash quotes them.
func trimUnescapedSpaces(p string) string {
	for strings.HasSuffix(p, " ") && !strings.HasSuffix(p, "\\ ") {
		p = p[:len(p)-1]
	}
	return p
}

// ancestorIgnores returns the ignore rules that apply to root from above:
// when root is inside a git repository, the repository's info/exclude and
// the ignore files of each directory from the repository's top down to
// root's parent. Outside a repository there are none.
func ancestorIgnores(root string) *ignoreList {
	var dirs []string
	top := ""
	for d := root; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
		dirs = append(dirs, d)
	}
	l := (*ignoreList)(nil).withFile(top, filepath.Join(top, ".git", "info", "exclude"))
	for i := len(dirs) - 1; i >= 0; i-- {
		l = l.withDir(dirs[i])
	}
	return l
}
