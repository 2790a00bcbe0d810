package approval

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/toolpath"
)

// Some files steer cairn or run as programs later: cairn's own settings and
// approval rules, the instructions it gives the model (AGENTS.md,
// CLAUDE.md), the MCP servers it starts (.mcp.json), and everything that
// changes what git runs (gitprotect.go). A model that could write them without asking could approve its
// own next calls or run code outside any rule, so edits to them ask in
// every mode but yolo, whatever the rules say, and the question says why.

// protectedReason returns why writing p, a path as Subject gives it, needs
// the person's say ("writes .cairn/approvals.json, a file that controls
// cairn"), or "" when p is not protected.
func (g *Gate) protectedReason(p string) string {
	if p == "" {
		return ""
	}
	if reason := g.runFileReason(p); reason != "" {
		return reason
	}
	abs := p
	if !path.IsAbs(p) {
		if g.dir == "" {
			abs = ""
		} else {
			abs = filepath.ToSlash(filepath.Join(g.dir, filepath.FromSlash(p)))
		}
	}
	for _, dir := range g.protected {
		if abs != "" && (abs == dir || strings.HasPrefix(abs, strings.TrimSuffix(dir, "/")+"/")) {
			return fmt.Sprintf("writes %s, a file that controls cairn", p)
		}
	}
	parts := strings.Split(p, "/")
	for _, part := range parts {
		if strings.EqualFold(part, ".cairn") {
			return fmt.Sprintf("writes %s, a file that controls cairn", p)
		}
	}
	if reason := g.gitReason(p, abs); reason != "" {
		return reason
	}
	if base := parts[len(parts)-1]; strings.EqualFold(base, "AGENTS.md") || strings.EqualFold(base, "CLAUDE.md") {
		return fmt.Sprintf("writes %s, instructions cairn gives the model", p)
	}
	if base := parts[len(parts)-1]; strings.EqualFold(base, ".mcp.json") {
		return fmt.Sprintf("writes %s, MCP servers cairn starts as programs", p)
	}
	return ""
}

// resolvedDirs returns dirs absolute, cleaned and with forward slashes,
// dropping empty ones, each as given and, when it differs, as
// toolpath.Resolve reads it (links followed), since a resolved path names
// a directory by its real path. With both false, only the resolved form.
func resolvedDirs(dirs []string, both bool) []string {
	var out []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs := toolpath.Abs(d, "")
		if !filepath.IsAbs(abs) {
			if a, err := filepath.Abs(abs); err == nil {
				abs = a
			}
		}
		real := toolpath.Resolve(abs, "")
		if both && real != abs {
			out = append(out, filepath.ToSlash(abs))
		}
		out = append(out, filepath.ToSlash(real))
	}
	return out
}
