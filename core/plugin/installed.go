package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/regfile"
)

// maxRegistry bounds installed_plugins.json and settings.json.
const maxRegistry = 4 << 20

// Dirs are where installed plugins are looked for.
type Dirs struct {
	// Claude is Claude Code's directory (~/.claude, or
	// $CLAUDE_CONFIG_DIR); "" skips Claude Code's plugins.
	Claude string
	// Cairn is cairn's directory (~/.cairn); its plugins/ holds those
	// `cairn plugin install` put there.
	Cairn string
	// Project is the project's directory, for plugins Claude Code
	// installed for one project (scope "project" or "local").
	Project string
	// ProjectTrusted says the project is trusted: its plugins are code
	// the project brings, and run only then.
	ProjectTrusted bool
}

// CairnDir is the directory of cairn's own plugins.
func CairnDir(cairnDir string) string { return filepath.Join(cairnDir, "plugins") }

// installedFile is Claude Code's registry of installed plugins (its
// version 2: {"version": 2, "plugins": {"name@marketplace": [entry...]}}).
type installedFile struct {
	Version int                           `json:"version"`
	Plugins map[string][]installedEntries `json:"plugins"`
}

type installedEntries struct {
	Scope       string `json:"scope"`
	InstallPath string `json:"installPath"`
	ProjectPath string `json:"projectPath"`
}

// Installed returns the plugins to load, each once by name (cairn's win
// over Claude Code's of the same name), sorted by name, and warnings for
// what could not be read. Claude Code's plugins count when its settings
// enable them (enabledPlugins); a plugin installed for a project only
// when it is this project and it is trusted.
func Installed(d Dirs) ([]Plugin, []string) {
	byName := map[string]Plugin{}
	var warnings []string
	if d.Claude != "" {
		ps, ws := claudePlugins(d)
		warnings = append(warnings, ws...)
		for _, p := range ps {
			byName[p.Name] = p
		}
	}
	if d.Cairn != "" {
		ps, ws := cairnPlugins(CairnDir(d.Cairn))
		warnings = append(warnings, ws...)
		for _, p := range ps {
			byName[p.Name] = p
		}
	}
	out := make([]Plugin, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
		warnings = append(warnings, p.Warnings...)
	}
	slices.SortFunc(out, func(a, b Plugin) int { return strings.Compare(a.Name, b.Name) })
	return out, warnings
}

// cairnPlugins reads every plugin directory in dir.
func cairnPlugins(dir string) ([]Plugin, []string) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v", dir, err)}
	}
	var out []Plugin
	var warnings []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p, err := Read(filepath.Join(dir, e.Name()))
		if err != nil {
			warnings = append(warnings, err.Error()+"; it is not loaded")
			continue
		}
		p.From = "cairn"
		out = append(out, p)
	}
	return out, warnings
}

// claudePlugins reads Claude Code's installed_plugins.json and the
// enabledPlugins of its settings.
func claudePlugins(d Dirs) ([]Plugin, []string) {
	registry := filepath.Join(d.Claude, "plugins", "installed_plugins.json")
	data, err := regfile.Read(registry, maxRegistry)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; Claude Code's plugins are not loaded", registry, err)}
	}
	var file installedFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; Claude Code's plugins are not loaded", registry, err)}
	}
	if file.Version != 2 {
		return nil, []string{fmt.Sprintf("%s: version %d; cairn reads version 2, so Claude Code's plugins are not loaded", registry, file.Version)}
	}
	enabled := enabledPlugins(filepath.Join(d.Claude, "settings.json"))
	// A plugin installed for the project is enabled in the project's
	// settings (scope project) or its local settings (scope local), read
	// only once the project is trusted.
	projectEnabled := map[string]bool{}
	if d.Project != "" && d.ProjectTrusted {
		for _, f := range []string{"settings.json", "settings.local.json"} {
			for id, on := range enabledPlugins(filepath.Join(d.Project, ".claude", f)) {
				projectEnabled[id] = projectEnabled[id] || on
			}
		}
	}
	ids := make([]string, 0, len(file.Plugins))
	for id := range file.Plugins {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []Plugin
	var warnings []string
	for _, id := range ids {
		for _, e := range file.Plugins[id] {
			switch e.Scope {
			case "user", "":
				if !enabled[id] {
					continue
				}
			case "project", "local":
				if !enabled[id] && !projectEnabled[id] {
					continue
				}
				if d.Project == "" || filepath.Clean(e.ProjectPath) != filepath.Clean(d.Project) {
					continue
				}
				if !d.ProjectTrusted {
					warnings = append(warnings, fmt.Sprintf("plugin %s is installed for this project, which is not trusted, so it is not loaded", id))
					continue
				}
			default:
				warnings = append(warnings, fmt.Sprintf("%s: plugin %s has scope %q, which cairn does not know; it is not loaded", registry, id, e.Scope))
				continue
			}
			if !filepath.IsAbs(e.InstallPath) {
				warnings = append(warnings, fmt.Sprintf("%s: plugin %s has no absolute installPath; it is not loaded", registry, id))
				continue
			}
			p, err := Read(e.InstallPath)
			if err != nil {
				warnings = append(warnings, err.Error()+"; it is not loaded")
				continue
			}
			p.ID, p.From = id, "claude"
			out = append(out, p)
			break
		}
	}
	return out, warnings
}

// enabledPlugins reads the "enabledPlugins" of a Claude Code settings
// file: the plugins set to true.
func enabledPlugins(path string) map[string]bool {
	data, err := regfile.Read(path, maxRegistry)
	if err != nil {
		return nil
	}
	var s struct {
		EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	out := map[string]bool{}
	for id, v := range s.EnabledPlugins {
		out[id] = string(v) == "true"
	}
	return out
}
