package approval

import (
	"path/filepath"

	"github.com/cairn-dev/cairn/core/toolpath"
)

// safeSkillDirs resolves dirs and keeps those whose files may be read
// without asking: none that is, or holds, a protected directory (cairn's
// keys) or /proc. A skill directory inside cairn's own (~/.cairn/skills/x)
// is kept: it holds the skill, not the keys beside it.
func (g *Gate) safeSkillDirs(dirs []string) []string {
	var out []string
	for _, d := range resolvedDirs(dirs, false) {
		d = filepath.FromSlash(d)
		safe := !toolpath.Within(procDir, d) && !toolpath.Within(d, procDir) && filepath.Dir(d) != d
		for _, p := range g.protected {
			if toolpath.Within(filepath.FromSlash(p), d) {
				safe = false
			}
		}
		if safe {
			out = append(out, d)
		}
	}
	return out
}

// inSkillDir reports whether abs, a path a reading tool looks at with its
// links followed, lies in a skill's directory. A link in a skill's
// directory that leads elsewhere is judged where it leads.
func (g *Gate) inSkillDir(abs string) bool {
	if abs == "" {
		return false
	}
	for _, d := range g.skillDirs {
		if toolpath.Within(abs, d) {
			return true
		}
	}
	return false
}
