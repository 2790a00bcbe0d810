// Package plugin reads Claude Code plugins: a directory with
// .claude-plugin/plugin.json beside skills/, agents/, commands/,
// hooks/hooks.json and .mcp.json, shared through marketplaces
// (.claude-plugin/marketplace.json). It finds the plugins the person
// installed, in Claude Code's plugin directory (installed_plugins.json,
// enabled in ~/.claude/settings.json) and in cairn's (~/.cairn/plugins),
// and installs and removes cairn's.
package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/regfile"
)

// maxManifest bounds a plugin.json or marketplace.json.
const maxManifest = 1 << 20

// Plugin is one plugin found on disk.
type Plugin struct {
	// Name is the manifest's name (or the directory's, without one).
	Name        string
	Version     string
	Description string
	// Root is the plugin's directory (CLAUDE_PLUGIN_ROOT).
	Root string
	// ID is Claude Code's name@marketplace, for plugins Claude Code
	// installed; "" for cairn's.
	ID string
	// From says where it was found: "claude" or "cairn".
	From string
	// manifest paths for components, relative to Root.
	hooks, mcp []string
	// Warnings are what of the manifest cairn does not act on.
	Warnings []string
}

// ManifestFile is where a plugin keeps its manifest.
func ManifestFile(root string) string { return filepath.Join(root, ".claude-plugin", "plugin.json") }

// MarketplaceFile is where a marketplace lists its plugins.
func MarketplaceFile(root string) string {
	return filepath.Join(root, ".claude-plugin", "marketplace.json")
}

// validName is what a plugin may be called: it becomes part of commands,
// tool names and a directory name.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// manifest is plugin.json as cairn reads it.
type manifest struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	Hooks       json.RawMessage `json:"hooks"`
	MCPServers  json.RawMessage `json:"mcpServers"`
	Commands    json.RawMessage `json:"commands"`
	Agents      json.RawMessage `json:"agents"`
	Skills      json.RawMessage `json:"skills"`
	LSPServers  json.RawMessage `json:"lspServers"`
}

// Read reads the plugin at root. A plugin without a manifest is named by
// its directory, as Claude Code does; a manifest that cannot be read, or
// a name that cannot be used, is an error.
func Read(root string) (Plugin, error) {
	p := Plugin{Root: root, Name: filepath.Base(root)}
	data, err := regfile.Read(ManifestFile(root), maxManifest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(root); serr != nil {
			return p, fmt.Errorf("plugin %s: %w", root, serr)
		}
	case err != nil:
		return p, fmt.Errorf("plugin %s: %w", root, err)
	default:
		var m manifest
		if err := json.Unmarshal(data, &m); err != nil {
			return p, fmt.Errorf("%s: %w", ManifestFile(root), err)
		}
		if m.Name != "" {
			p.Name = m.Name
		}
		p.Version, p.Description = m.Version, m.Description
		var ws []string
		p.hooks, ws = paths("hooks", m.Hooks)
		p.Warnings = append(p.Warnings, ws...)
		p.mcp, ws = paths("mcpServers", m.MCPServers)
		p.Warnings = append(p.Warnings, ws...)
		for _, k := range []struct {
			name string
			raw  json.RawMessage
		}{{"commands", m.Commands}, {"agents", m.Agents}, {"skills", m.Skills}, {"lspServers", m.LSPServers}} {
			if len(k.raw) > 0 {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s: %q is not read by cairn yet", ManifestFile(root), k.name))
			}
		}
	}
	if !validName().MatchString(p.Name) {
		return p, fmt.Errorf("plugin %s: the name %q may hold only letters, digits, '.', '_' and '-'", root, p.Name)
	}
	return p, nil
}

// paths reads a manifest field that names a file or files ("./x.json" or
// a list); an inline object is reported, not read.
func paths(field string, raw json.RawMessage) ([]string, []string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many, nil
	}
	return nil, []string{fmt.Sprintf("plugin.json %q written inline is not read by cairn yet; put it in its own file", field)}
}

// HooksFiles are the plugin's hook files: hooks/hooks.json and those its
// manifest names.
func (p Plugin) HooksFiles() []string {
	return p.files(filepath.Join("hooks", "hooks.json"), p.hooks)
}

// MCPFiles are the plugin's MCP configuration files: .mcp.json and those
// its manifest names.
func (p Plugin) MCPFiles() []string { return p.files(".mcp.json", p.mcp) }

// files is the default file and the manifest's, each once, inside Root.
func (p Plugin) files(def string, named []string) []string {
	out := []string{filepath.Join(p.Root, def)}
	for _, n := range named {
		f := filepath.Join(p.Root, n)
		if rel, err := filepath.Rel(p.Root, f); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		if f != out[0] {
			out = append(out, f)
		}
	}
	return out
}

// MCPServerName is the name a plugin's MCP server runs under, as Claude
// Code names it (plugin:<plugin>:<server>, which tool names spell
// plugin_<plugin>_<server>), so two plugins' servers never collide with
// each other or with the person's.
func MCPServerName(plugin, server string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, "plugin_"+plugin+"_"+server)
}
