package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/settings"
)

// Limits on what Scripts reads from the control files that name commands.
const (
	// maxScripts bounds the files Scripts returns.
	maxScripts = 500
	// maxSettingsBytes bounds a settings or MCP file read for the
	// commands it names.
	maxSettingsBytes = 4 << 20
)

// Script is a file that one of the project's control files names as
// something to run, or as a file a command it names is given: a hook's
// script (`bash tools/start.sh`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py`),
// an MCP server's (`node ./server.js`), an extension's, the shell the
// settings name. It steers cairn as much as the control file does.
type Script struct {
	// Path is absolute and clean, in the project's resolved directory.
	Path string
	// NamedBy is the control file that names it, relative to the
	// project's Root with forward slashes.
	NamedBy string
	// Role says what NamedBy runs it as: "a hook", "an MCP server", "an
	// extension", "the shell".
	Role string
	// Outside says Path lies outside the project: the project names it,
	// but cannot vouch for it, and cairn neither reads nor watches it.
	Outside bool
	// Runs says the command runs the file itself (its program, an
	// interpreter's script); otherwise it is given the file (`jq . f`).
	Runs bool
}

// What says what the file is, for questions: "a script cairn runs as a
// hook of .claude/settings.json", "a file a hook of .cairn/settings.json
// is given".
func (s Script) What() string {
	if s.Runs {
		return "a script cairn runs as " + s.Role + " of " + s.NamedBy
	}
	return "a file " + s.Role + " of " + s.NamedBy + " is given"
}

// Scripts lists the files the project's control files name as something
// to run (see Script): the commands of hooks in .cairn/settings.json (and,
// with ClaudeSettings, .claude/settings.json and settings.local.json), the
// extensions of .cairn/settings.json and of the project's
// .cairn/extensions, the project's MCP servers (.mcp.json,
// .cairn/mcp.json), and the settings' shellPath and shellCommandPrefix.
// Every word of such a command that names a file inside the project
// counts when the file exists; the program and the script an interpreter
// is given count even before they exist, since creating them is the same
// change as editing them. Outside the project only those are listed
// (Outside), never what the commands write. Control files that lead out
// of the project are not read. The list is bounded (maxScripts) and
// sorted by Path; what Scan fingerprints, the approval gate protects.
func (p Project) Scripts() []Script {
	scripts, _, _ := p.scripts()
	return scripts
}

// scripts is Scripts, with the commands whose files cannot be known and
// whether the control files name more than it lists.
func (p Project) scripts() ([]Script, []ControlFile, bool) {
	c := collector{p: p, seen: map[string]bool{}}
	vars := map[string]string{"CLAUDE_PROJECT_DIR": p.Dir, "CAIRN_PROJECT_DIR": p.Dir}
	c.settings(settings.ProjectFile(p.Dir), vars)
	if p.ClaudeSettings {
		for _, f := range hook.ClaudeProjectFiles(p.Dir) {
			c.hooks(f, vars)
		}
	}
	for _, f := range mcp.ProjectFiles(p.Root, p.Dir) {
		c.mcp(f)
	}
	c.extensionDir(extension.ProjectDir(p.Root))
	slices.SortFunc(c.out, func(a, b Script) int { return strings.Compare(a.Path, b.Path) })
	return c.out, c.doubts, c.tooMany
}

// PersonalScripts lists the files inside the project that the person's
// own settings file at path (~/.cairn/settings.json) names as something
// to run: its hooks, extensions and shell, read as Scripts reads the
// project's. The person chose to run them, but the project holds them, so
// a model that edits them changes what runs; the approval gate protects
// them as it protects the project's. Files outside the project are the
// person's own and are not listed; nothing here is part of trust.
func (p Project) PersonalScripts(path string) []Script {
	c := collector{p: p, seen: map[string]bool{}, personal: true}
	c.settings(path, map[string]string{"CLAUDE_PROJECT_DIR": p.Dir, "CAIRN_PROJECT_DIR": p.Dir})
	return slices.DeleteFunc(c.out, func(s Script) bool { return s.Outside })
}

// collector gathers one Scripts list.
type collector struct {
	p       Project
	out     []Script
	seen    map[string]bool
	tooMany bool
	// doubts are the commands whose files cannot be known, as entries
	// of a scan that make it unsure.
	doubts []ControlFile
	// personal reads the person's own settings, wherever they are.
	personal bool
}

// read returns the control file at path when it exists and, resolved,
// lies inside the project; a file leading out is recorded by Scan as a
// link, and not read.
func (c *collector) read(path string) ([]byte, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !c.personal && !c.inside(real) {
		return nil, false
	}
	data, err := regfile.Read(real, maxSettingsBytes)
	return data, err == nil
}

// inside reports whether the clean absolute path p lies in the project.
func (c *collector) inside(p string) bool {
	rel, err := filepath.Rel(c.p.Root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// rel names a control file for messages: relative to Root.
func (c *collector) rel(path string) string {
	if c.personal {
		return path
	}
	if r, err := filepath.Rel(c.p.Root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// settings reads cairn's project settings file: its hooks, extensions,
// shellPath and shellCommandPrefix.
func (c *collector) settings(path string, vars map[string]string) {
	data, ok := c.read(path)
	if !ok {
		return
	}
	c.hooksIn(path, data, vars)
	var file struct {
		Extensions  json.RawMessage `json:"extensions"`
		ShellPath   string          `json:"shellPath"`
		ShellPrefix string          `json:"shellCommandPrefix"`
	}
	if json.Unmarshal(data, &file) != nil {
		return
	}
	for _, e := range extension.FromSettings(file.Extensions, c.p.Dir) {
		c.program(path, "an extension", e.Dir, e.Command, e.Args)
	}
	if file.ShellPath != "" {
		c.program(path, "the shell", c.p.Dir, file.ShellPath, nil)
	}
	if file.ShellPrefix != "" {
		c.line(path, "the shell", file.ShellPrefix, vars)
	}
}

// hooks reads the hooks of the settings file at path.
func (c *collector) hooks(path string, vars map[string]string) {
	if data, ok := c.read(path); ok {
		c.hooksIn(path, data, vars)
	}
}

func (c *collector) hooksIn(path string, data []byte, vars map[string]string) {
	cfg, _, err := hook.ParseSettings(path, data)
	if err != nil {
		return
	}
	for _, e := range hook.Events {
		for _, g := range cfg.Events[e] {
			for _, h := range g.Hooks {
				c.line(path, "a hook", h.Command, vars)
			}
		}
	}
}

// line records the files a command line run in the project's directory
// names.
func (c *collector) line(from, role, line string, vars map[string]string) {
	files, ok := approval.FilesNamed(line, vars)
	if !ok {
		// What it runs cannot be known, so no trust can last.
		name := line
		if r := []rune(name); len(r) > 60 {
			name = string(r[:60]) + "…"
		}
		c.doubts = append(c.doubts, ControlFile{Path: fmt.Sprintf("%s: %s %q", c.rel(from), strings.TrimPrefix(role, "the "), name),
			Doubt: "cairn cannot tell which files this command runs: it does not parse as a shell line, or is longer than " + regfile.Size(approval.MaxNamedLine), sum: "unreadable command"})
	}
	for _, f := range files {
		p := f.Path
		switch {
		case strings.HasPrefix(p, "~"):
			home, err := os.UserHomeDir()
			if err != nil {
				continue
			}
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		case !filepath.IsAbs(p):
			p = filepath.Join(c.p.Dir, filepath.FromSlash(p))
		}
		c.add(from, role, filepath.Clean(p), f.Runs)
	}
}

// program records a program run with args (not through a shell) in dir.
func (c *collector) program(from, role, dir, command string, args []string) {
	if strings.Contains(command, unknownVar) {
		return
	}
	if strings.ContainsRune(command, filepath.Separator) {
		if !filepath.IsAbs(command) {
			command = filepath.Join(dir, command)
		}
		c.add(from, role, filepath.Clean(command), true)
	}
	script := approval.RunsScript(command)
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if strings.Contains(a, unknownVar) {
			script = false
			continue
		}
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		c.add(from, role, filepath.Clean(p), script)
		script = false
	}
}

// mcp records the programs of the stdio servers of an MCP file.
func (c *collector) mcp(f mcp.File) {
	data, ok := c.read(f.Path)
	if !ok {
		return
	}
	servers, _ := mcp.Parse(f.Path, data, f.Dir, c.mcpEnv)
	for _, s := range servers {
		if s.Transport == mcp.TransportStdio {
			c.program(f.Path, "an MCP server", s.Dir, s.Command, s.Args)
		}
	}
}

// unknownVar marks where an MCP file's ${VAR} stood for a variable other
// than those mcpEnv knows: its value is the person's (and may be a
// secret, which must not reach the trust file or a question), so a word
// holding one names no file the scan can tell.
const unknownVar = "\x00"

// mcpEnv is the environment an MCP file's ${VAR} references are read
// with: the project's directory for $CLAUDE_PROJECT_DIR,
// $CAIRN_PROJECT_DIR and $PWD, the home directory for $HOME, and
// unknownVar for every other variable.
func (c *collector) mcpEnv(name string) string {
	switch name {
	case "CLAUDE_PROJECT_DIR", "CAIRN_PROJECT_DIR", "PWD":
		return c.p.Dir
	case "HOME":
		home, _ := os.UserHomeDir()
		return home
	}
	return unknownVar
}

// extensionDir records what the manifests of the project's extensions
// name; the extensions' own directory is fingerprinted by Scan.
func (c *collector) extensionDir(dir string) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || !c.inside(real) {
		return
	}
	for _, e := range extension.Discover(dir, extension.ScopeProject) {
		if e.Err != nil || e.Command == "" {
			continue
		}
		if where, err := filepath.EvalSymlinks(e.Path); err != nil || !c.inside(where) {
			continue
		}
		c.program(filepath.Join(e.Path, extension.ManifestFile), "an extension", e.Dir, e.Command, e.Args)
	}
}

// add records p, named by the control file from, when it is a file the
// project holds (or, for a program, may hold) or a program outside it.
func (c *collector) add(from, role, p string, runs bool) {
	if c.seen[p] {
		return
	}
	if len(c.out) >= maxScripts {
		c.tooMany = true
		return
	}
	inside := c.inside(p)
	switch {
	case !inside && (!runs || systemProgram(p)):
		return
	case inside && !runs:
		// An operand counts when it is a file the project holds.
		info, err := os.Stat(p)
		if err != nil || info.IsDir() {
			return
		}
	case inside:
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			return
		}
	}
	c.seen[p] = true
	c.out = append(c.out, Script{Path: p, NamedBy: c.rel(from), Role: role, Outside: !inside, Runs: runs})
}

// systemDirs hold the system's own programs: a command naming one by path
// (/usr/bin/python3) runs nothing the project chose.
var systemDirs = []string{"/bin/", "/sbin/", "/usr/", "/opt/homebrew/", "/nix/store/"}

// systemProgram reports whether p, outside the project, is one of the
// system's programs.
func systemProgram(p string) bool {
	s := filepath.ToSlash(p)
	return slices.ContainsFunc(systemDirs, func(d string) bool { return strings.HasPrefix(s, d) })
}
