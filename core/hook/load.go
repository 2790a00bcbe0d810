package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/regfile"
)

// maxSettingsBytes bounds a settings file read for hooks.
const maxSettingsBytes = 4 << 20

// ClaudeProjectFiles are the files of a project's Claude Code settings
// whose hooks cairn reads when the person opts in and the project is
// trusted.
func ClaudeProjectFiles(project string) []string {
	return []string{
		filepath.Join(project, ".claude", "settings.json"),
		filepath.Join(project, ".claude", "settings.local.json"),
	}
}

// LoadFiles reads the hooks of the settings files at paths, in order; a
// missing file holds none. Everything wrong is returned as a warning for
// the person, and costs only the file (or the entry) it is in.
func LoadFiles(paths ...string) (Config, []string) {
	var cfg Config
	var warnings []string
	for _, p := range paths {
		data, err := readSettings(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v; its hooks do not run", p, err))
			continue
		}
		c, ws, err := ParseSettings(p, data)
		warnings = append(warnings, ws...)
		if err != nil {
			warnings = append(warnings, err.Error()+"; this file's hooks do not run")
			continue
		}
		cfg.Merge(c)
	}
	return cfg, warnings
}

func readSettings(path string) ([]byte, error) { return regfile.Read(path, maxSettingsBytes) }

// PluginHooksFile is where a Claude Code plugin keeps its hooks.
func PluginHooksFile(root string) string { return filepath.Join(root, "hooks", "hooks.json") }

// LoadPlugin reads the hooks of the plugin at root from files (normally
// PluginHooksFile: a file with a "hooks" block beside its "description"):
// each runs with CLAUDE_PLUGIN_ROOT set to root, and ${CLAUDE_PLUGIN_ROOT}
// in its command replaced by it. A missing file holds no hooks.
func LoadPlugin(root string, files ...string) (Config, []string) {
	cfg, warnings := LoadFiles(files...)
	// Only the person's own settings choose which settings files count.
	cfg.ReadClaudeProjectSettings, cfg.SkipClaudeUserSettings = false, false
	for e, groups := range cfg.Events {
		for i := range groups {
			for j := range groups[i].Hooks {
				cfg.Events[e][i].Hooks[j].PluginRoot = root
			}
		}
	}
	return cfg, warnings
}
