package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/plugin"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/skills"
	"github.com/cairn-dev/cairn/core/subagent"
)

// lookup reads a variable of the environment; "" for an environment
// without variables (a test's).
func (env environment) lookup(k string) string {
	if env.getenv == nil {
		return ""
	}
	return env.getenv(k)
}

// claudeDir is Claude Code's directory: $CLAUDE_CONFIG_DIR, or ~/.claude;
// "" when neither can be named.
func claudeDir(env environment) string {
	if d := env.lookup("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if home := env.lookup("HOME"); home != "" {
		return filepath.Join(home, ".claude")
	}
	return ""
}

// protectedDirs are the person's files that control cairn, which an edit
// asks about in every mode but yolo: cairn's directory, pi's when pi is
// set up (its models.json and auth.json hold the same keys), and Claude
// Code's (its settings' hooks and permissions, its plugins) with
// ~/.claude.json (its MCP servers), which cairn reads too.
func protectedDirs(env environment) []string {
	dirs := []string{env.dir}
	if env.piDir != "" {
		dirs = append(dirs, env.piDir)
	}
	if d := claudeDir(env); d != "" {
		dirs = append(dirs, d)
	}
	if home := env.lookup("HOME"); home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude.json"))
	}
	// The attach sockets: a command that reaches them could answer the
	// session's own questions.
	if d := attachDir(env); d != "" {
		dirs = append(dirs, d)
	}
	return dirs
}

// installedPlugins are the plugins the session loads: the person's (in
// Claude Code's directory, enabled there, and in cairn's), and those
// Claude Code installed for this project once it is trusted.
func installedPlugins(env environment, project string, trusted bool) ([]plugin.Plugin, []string) {
	return plugin.Installed(plugin.Dirs{Claude: claudeDir(env), Cairn: env.dir, Project: project, ProjectTrusted: trusted})
}

// pluginHooks are the hooks of plugins.
func pluginHooks(plugins []plugin.Plugin) (hook.Config, []string) {
	var cfg hook.Config
	var warnings []string
	for _, p := range plugins {
		c, ws := hook.LoadPlugin(p.Root, p.HooksFiles()...)
		cfg.Merge(c)
		warnings = append(warnings, ws...)
	}
	return cfg, warnings
}

// pluginMCPFiles are the MCP configuration files of plugins, each server
// named after its plugin (plugin.MCPServerName) and ${CLAUDE_PLUGIN_ROOT}
// the plugin's directory.
func pluginMCPFiles(plugins []plugin.Plugin) []mcp.File {
	var files []mcp.File
	for _, p := range plugins {
		name := p.Name
		for _, f := range p.MCPFiles() {
			files = append(files, mcp.File{Path: f, Dir: p.Root, Format: mcp.FormatPlugin,
				Vars:   map[string]string{"CLAUDE_PLUGIN_ROOT": p.Root},
				Rename: func(server string) string { return plugin.MCPServerName(name, server) }})
		}
	}
	return files
}

// pluginSkillRoots are the skills/ directories of plugins, searched
// after the person's own. Their skills keep their own names: the
// plugin:name namespace Claude Code gives them is not applied yet.
func pluginSkillRoots(plugins []plugin.Plugin) []skills.Root {
	var roots []skills.Root
	for _, p := range plugins {
		dir := filepath.Join(p.Root, "skills")
		if _, err := os.Stat(dir); err == nil {
			roots = append(roots, skills.Root{Path: dir, Source: skills.SourceUser, Label: "plugin " + p.Name})
		}
	}
	return roots
}

// pluginCommands are the commands/ templates of plugins, named
// plugin:command as Claude Code names them (/superpowers:brainstorm).
func pluginCommands(plugins []plugin.Plugin) (prompts.Templates, []error) {
	var out prompts.Templates
	var errs []error
	for _, p := range plugins {
		ts, es := prompts.LoadDir(filepath.Join(p.Root, "commands"), prompts.ScopeUser)
		errs = append(errs, es...)
		for _, t := range ts {
			t.Name = p.Name + ":" + t.Name
			out = append(out, t)
		}
	}
	return out, errs
}

// pluginAgents are the agents/ definitions of plugins, each named
// plugin:agent (pr-review-toolkit:code-reviewer), as in Claude Code.
func pluginAgents(plugins []plugin.Plugin) ([]subagent.Definition, []error) {
	var defs []subagent.Definition
	var problems []error
	for _, p := range plugins {
		ds, ps := subagent.Load([]string{filepath.Join(p.Root, "agents")})
		problems = append(problems, ps...)
		for _, d := range ds {
			d.Name = p.Name + ":" + d.Name
			defs = append(defs, d)
		}
	}
	return defs, problems
}

const pluginUsage = `usage: cairn plugin install PATH|GITURL
       cairn plugin list
       cairn plugin remove NAME

Claude Code plugins: install copies a plugin directory (or clones a git
repository) into ~/.cairn/plugins; list shows the plugins cairn loads, from
there and from Claude Code's ~/.claude/plugins (those enabled in
~/.claude/settings.json); remove deletes one of cairn's.
`

// pluginCommand runs `cairn plugin ...`.
func pluginCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	env := newEnvironment(getenv)
	switch {
	case len(args) == 2 && args[0] == "install":
		p, notes, err := plugin.Install(ctx, args[1], env.dir)
		for _, n := range notes {
			fmt.Fprintf(streams.Err, "cairn: note: %s\n", n)
		}
		if err != nil {
			fmt.Fprintf(streams.Err, "cairn: plugin install: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(streams.Out, "installed %s %s in %s\n", p.Name, p.Version, p.Root)
		for _, w := range p.Warnings {
			fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
		}
		return exitOK
	case len(args) == 1 && args[0] == "list":
		cwd, _ := os.Getwd()
		plugins, warnings := installedPlugins(env, cwd, false)
		for _, w := range warnings {
			fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
		}
		if len(plugins) == 0 {
			fmt.Fprintln(streams.Out, "no plugins installed")
		}
		for _, p := range plugins {
			from := "cairn"
			if p.From == "claude" {
				from = "Claude Code (" + p.ID + ")"
			}
			fmt.Fprintf(streams.Out, "%s %s  from %s  %s\n", p.Name, p.Version, from, p.Root)
		}
		return exitOK
	case len(args) == 2 && args[0] == "remove":
		if err := plugin.Remove(args[1], env.dir); err != nil {
			fmt.Fprintf(streams.Err, "cairn: plugin remove: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(streams.Out, "removed %s\n", args[1])
		return exitOK
	}
	fmt.Fprint(streams.Err, pluginUsage)
	return exitUsage
}
