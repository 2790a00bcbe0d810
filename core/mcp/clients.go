package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sync"

	"github.com/tailscale/hujson"
)

// Format is how a configuration file writes its servers.
type Format int

// The formats cairn reads.
const (
	// FormatMCPServers is {"mcpServers": {...}}: cairn's mcp.json, Claude
	// Code's .mcp.json, Cursor's .cursor/mcp.json.
	FormatMCPServers Format = iota
	// FormatVSCode is VS Code's .vscode/mcp.json: JSON with comments and
	// trailing commas, servers under "servers", VS Code's ${...}
	// variables.
	FormatVSCode
	// FormatZed is Zed's settings.json (JSON with comments), servers
	// under "context_servers"; a file without them holds none.
	FormatZed
	// FormatClaudeUser is Claude Code's ~/.claude.json: the person's
	// servers under "mcpServers", and those of File.Project under
	// "projects"; a file without them holds none.
	FormatClaudeUser
	// FormatPlugin is a Claude Code plugin's .mcp.json: servers under
	// "mcpServers", or the servers themselves at the top.
	FormatPlugin
)

// maxClaudeUserSize bounds ~/.claude.json, which also keeps Claude Code's
// history of every project and grows past MaxConfigSize.
const maxClaudeUserSize = 64 << 20

// OtherClientProjectFiles are the MCP configuration files other clients
// keep in a project directory dir, in the order they are read: VS Code's,
// Cursor's, Zed's. Like .mcp.json they name commands cairn would start, so
// they are read only in a trusted project (core/trust fingerprints them).
func OtherClientProjectFiles(dir string) []File {
	return []File{
		{Path: filepath.Join(dir, ".vscode", "mcp.json"), Dir: dir, Format: FormatVSCode},
		{Path: filepath.Join(dir, ".cursor", "mcp.json"), Dir: dir, Format: FormatMCPServers},
		{Path: filepath.Join(dir, ".zed", "settings.json"), Dir: dir, Format: FormatZed},
	}
}

// ClaudeUserFile is the person's ~/.claude.json (in home) read for the
// servers they added with `claude mcp add` (user scope, and local scope
// for project).
func ClaudeUserFile(home, project string) File {
	return File{Path: filepath.Join(home, ".claude.json"), Dir: project, Format: FormatClaudeUser, Project: project}
}

// ParseFile reads data, the contents of f, in f's format (see Parse for
// getenv). core/trust reads the commands of every format with it.
func ParseFile(f File, data []byte, getenv func(string) string) ([]Server, error) {
	dir := f.Dir
	if dir == "" {
		dir = filepath.Dir(f.Path)
	}
	return parseFormat(f, data, dir, getenv)
}

// parseFormat reads a file of format f into {"mcpServers": ...} servers.
func parseFormat(f File, data []byte, dir string, getenv func(string) string) ([]Server, error) {
	switch f.Format {
	case FormatVSCode, FormatZed:
		std, err := hujson.Standardize(data)
		if err != nil {
			return nil, fmt.Errorf("%s: not valid JSON with comments: %w", f.Path, err)
		}
		if f.Format == FormatVSCode {
			return parseVSCode(f.Path, std, dir, getenv)
		}
		return parseZed(f.Path, std, dir, getenv)
	case FormatClaudeUser:
		return parseClaudeUser(f, data, dir, getenv)
	case FormatPlugin:
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: not valid JSON: %w", f.Path, err)
		}
		if _, ok := doc["mcpServers"]; !ok {
			return parseServers(f.Path, doc, nil, dir, getenv)
		}
	}
	return Parse(f.Path, data, dir, getenv)
}

// parseServers parses each of entries (already in cairn's form), sorted by
// name, naming path in errors.
func parseServers(path string, entries map[string]json.RawMessage, errs []error, dir string, getenv func(string) string) ([]Server, error) {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)
	var servers []Server
	for _, name := range names {
		if entries[name] == nil {
			continue
		}
		s, err := parseServer(name, entries[name], dir, getenv)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", path, name, err))
			continue
		}
		s.Source = path
		servers = append(servers, s)
	}
	return servers, errors.Join(errs...)
}

// vscodeVar is a ${...} reference in VS Code's syntax.
var vscodeVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z]+)(?::([^}]*))?\}`) })

// parseVSCode reads VS Code's {"servers": {...}, "inputs": [...]}.
func parseVSCode(path string, data []byte, dir string, getenv func(string) string) ([]Server, error) {
	var doc struct {
		Servers map[string]map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Servers == nil {
		return nil, fmt.Errorf(`%s: no "servers" object; VS Code's file looks like {"servers": {"name": {"command": "..."}}}`, path)
	}
	entries := map[string]json.RawMessage{}
	var errs []error
	for name, entry := range doc.Servers {
		if _, ok := entry["envFile"]; ok {
			errs = append(errs, fmt.Errorf("%s: server %q: cairn does not read \"envFile\"; put the variables in \"env\"", path, name))
			continue
		}
		// "dev" only tells VS Code to restart the server when its files
		// change and to attach a debugger.
		delete(entry, "dev")
		var bad error
		converted := mapStrings(entry, func(s string) string {
			return vscodeVar().ReplaceAllStringFunc(s, func(ref string) string {
				m := vscodeVar().FindStringSubmatch(ref)
				switch m[1] {
				case "workspaceFolder":
					return dir
				case "userHome":
					return getenv("HOME")
				case "env":
					return "${" + m[2] + "}"
				case "input":
					bad = fmt.Errorf("asks for VS Code input %q, which cairn cannot ask for; put the value in an environment variable and write ${env:NAME}", m[2])
				default:
					bad = fmt.Errorf("uses VS Code's variable %s, which cairn does not know", ref)
				}
				return ""
			})
		})
		if bad != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", path, name, bad))
			continue
		}
		raw, _ := json.Marshal(converted)
		entries[name] = raw
	}
	return parseServers(path, entries, errs, dir, getenv)
}

// mapStrings applies f to every string in v, a decoded JSON value.
func mapStrings(v any, f func(string) string) any {
	switch t := v.(type) {
	case string:
		return f(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = mapStrings(x, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = mapStrings(x, f)
		}
		return out
	}
	return v
}

// parseZed reads the "context_servers" of Zed's settings: entries with
// "command" and "args" (or the older "command": {"path", "args", "env"}),
// or "url"; servers an extension provides cannot run outside Zed.
func parseZed(path string, data []byte, dir string, getenv func(string) string) ([]Server, error) {
	var doc struct {
		ContextServers map[string]map[string]any `json:"context_servers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	entries := map[string]json.RawMessage{}
	var errs []error
	for name, entry := range doc.ContextServers {
		if src, _ := entry["source"].(string); src == "extension" {
			errs = append(errs, fmt.Errorf("%s: server %q comes from a Zed extension, which only Zed can run; configure its command in cairn's mcp.json", path, name))
			continue
		}
		delete(entry, "source")
		if settings, ok := entry["settings"].(map[string]any); ok && len(settings) > 0 {
			errs = append(errs, fmt.Errorf("%s: server %q: \"settings\" are for a Zed extension; cairn cannot pass them", path, name))
			continue
		}
		delete(entry, "settings")
		if cmd, ok := entry["command"].(map[string]any); ok {
			delete(entry, "command")
			entry["command"] = cmd["path"]
			for _, k := range []string{"args", "env"} {
				if v, ok := cmd[k]; ok {
					entry[k] = v
				}
			}
		}
		raw, _ := json.Marshal(entry)
		entries[name] = raw
	}
	return parseServers(path, entries, errs, dir, getenv)
}

// parseClaudeUser reads ~/.claude.json's "mcpServers" and, for f.Project,
// "projects"[f.Project]["mcpServers"] (which win).
func parseClaudeUser(f File, data []byte, dir string, getenv func(string) string) ([]Server, error) {
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", f.Path, err)
	}
	entries := map[string]json.RawMessage{}
	for k, v := range doc.MCPServers {
		entries[k] = v
	}
	if f.Project != "" {
		for k, v := range doc.Projects[f.Project].MCPServers {
			entries[k] = v
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	return parseServers(f.Path, entries, nil, dir, getenv)
}
