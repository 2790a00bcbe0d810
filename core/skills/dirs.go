package skills

import (
	"path/filepath"
	"strings"
)

// Source says whose a skill directory is.
type Source string

// The sources.
const (
	// SourceUser is the person's own directory.
	SourceUser Source = "user"
	// SourceProject is the project's, which came with the repository.
	SourceProject Source = "project"
)

// Root is one directory searched for skills.
type Root struct {
	// Path is the directory.
	Path string
	// Source says whose it is.
	Source Source
	// Label names it for people: "~/.cairn/skills", ".claude/skills".
	Label string
}

// Where says which directories Roots lists.
type Where struct {
	// Home is the person's home directory; "" leaves out the other agents'
	// directories under it.
	Home string
	// CairnDir is cairn's own directory (~/.cairn, or CAIRN_DIR).
	CairnDir string
	// Project is the working directory; "" (an untrusted project) leaves
	// out every project directory.
	Project string
	// OtherAgents adds other agents' directories (the otherAgentDirs
	// setting).
	OtherAgents bool
}

// Roots lists the directories to search, in order of precedence: the
// person's own before the project's, cairn's before other agents'.
func Roots(w Where) []Root {
	var out []Root
	add := func(base string, src Source, parts ...string) {
		if base == "" {
			return
		}
		path := filepath.Join(append([]string{base}, parts...)...)
		label := filepath.ToSlash(filepath.Join(parts...))
		switch {
		case src == SourceUser && w.Home != "" && strings.HasPrefix(path, w.Home+string(filepath.Separator)):
			label = "~/" + filepath.ToSlash(path[len(w.Home)+1:])
		case src == SourceUser:
			label = filepath.ToSlash(path)
		}
		out = append(out, Root{Path: path, Source: src, Label: label})
	}
	add(w.CairnDir, SourceUser, "skills")
	if w.OtherAgents {
		add(w.Home, SourceUser, ".claude", "skills")
		add(w.Home, SourceUser, ".pi", "agent", "skills")
		add(w.Home, SourceUser, ".agents", "skills")
	}
	add(w.Project, SourceProject, ".cairn", "skills")
	if w.OtherAgents {
		add(w.Project, SourceProject, ".claude", "skills")
		add(w.Project, SourceProject, ".pi", "skills")
		add(w.Project, SourceProject, ".agents", "skills")
	}
	return out
}
