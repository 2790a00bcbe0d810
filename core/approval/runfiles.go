package approval

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// This file protects the files a project's control files name as
// something to run (Config.RunFiles): a hook's script, an MCP server's, an
// extension's. Editing one changes what runs at the next hook as surely as
// editing the settings that name it, and outside any sandbox.

// runFiles returns Config.RunFiles keyed by absolute path with forward
// slashes (relative ones taken from dir), each as given and as resolved
// (see resolvedDirs).
func runFiles(files map[string]string, dir string) map[string]string {
	out := make(map[string]string, 2*len(files))
	for p, why := range files {
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		for _, r := range resolvedDirs([]string{p}, true) {
			out[r] = why
		}
	}
	return out
}

// runFileReason returns why writing p, a path as Subject gives it, needs
// the person's say when it is one of Config.RunFiles ("writes
// tools/start.sh, a script cairn runs as a hook of .cairn/settings.json"),
// or "".
func (g *Gate) runFileReason(p string) string {
	if len(g.runFiles) == 0 || p == "" {
		return ""
	}
	abs := p
	if !path.IsAbs(p) {
		if g.dir == "" {
			return ""
		}
		abs = filepath.ToSlash(filepath.Join(g.dir, filepath.FromSlash(p)))
	}
	abs = path.Clean(abs)
	if why, ok := g.runFiles[abs]; ok {
		return fmt.Sprintf("writes %s, %s", p, why)
	}
	// A command writing into a directory (`cp -t tools x`, `rm -r tools`)
	// may write the files in it.
	for _, f := range g.runFileKeys {
		if strings.HasPrefix(f, strings.TrimSuffix(abs, "/")+"/") {
			return fmt.Sprintf("writes into %s, which holds %s, %s", p, g.relPath(f), g.runFiles[f])
		}
	}
	return ""
}
