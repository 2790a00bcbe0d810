package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// PiFlags are the flags pi 0.87 documents that cairn's own flags do not
// cover, so a host that starts cairn where it started `pi` is understood.
// Each is either carried out or, when cairn has nothing it could apply to,
// accepted with a note on stderr (never silently; see noEffect).
type PiFlags struct {
	// AppendSystemPrompt are --append-system-prompt values in order: text,
	// or the name of a file whose contents are appended.
	AppendSystemPrompt []string
	// Name is --name: the session's display name.
	Name string
	// SessionID is --session-id: continue the session of this project with
	// exactly this id, or start one with it.
	SessionID string
	// Fork is --fork: copy the session (a path or an id prefix) into a new
	// one and continue that.
	Fork string
	// Tools is which tools the model gets (--tools, --exclude-tools,
	// --no-tools, --no-builtin-tools).
	Tools ToolSelection
	// NoContextFiles is --no-context-files: no AGENTS.md or CLAUDE.md.
	NoContextFiles bool
	// PromptTemplates are --prompt-template paths (files or directories),
	// loaded whatever NoPromptTemplates says.
	PromptTemplates []string
	// NoPromptTemplates is --no-prompt-templates: no templates are looked
	// for in ~/.cairn/prompts or .cairn/prompts.
	NoPromptTemplates bool
	// NoSkills is --no-skills: no skills are looked for in the skill
	// directories.
	NoSkills bool
	// Skills are --skill paths (skill directories, directories of them, or
	// SKILL.md files), loaded whatever NoSkills says.
	Skills []string
	// TrustRun is --approve: trust the project for this run only.
	TrustRun bool
	// NoTrust is --no-approve: ignore the project's files for this run,
	// even if it is trusted.
	NoTrust bool
	// ThemePaths are --theme paths: theme files, or directories of them,
	// loaded whatever NoThemes says.
	ThemePaths []string
	// UseTheme is --use-theme: the interface's theme for this run.
	UseTheme string
	// NoThemes is --no-themes: no themes are read from ~/.cairn/themes or
	// pi's themes directory.
	NoThemes bool

	// noEffect are the notes, one per flag given that cairn accepts but
	// cannot apply, written to stderr before the run starts.
	noEffect []string
}

// ToolSelection says which tools the model gets. The zero value is every
// tool.
type ToolSelection struct {
	// Allow, when AllowSet, is --tools: only these (built-in and MCP).
	Allow    []string
	AllowSet bool
	// Exclude is --exclude-tools: never these.
	Exclude []string
	// None is --no-tools: no tool unless Allow names it.
	None bool
	// NoBuiltin is --no-builtin-tools: no built-in tool unless Allow names
	// it; MCP tools stay.
	NoBuiltin bool
}

// Narrows reports whether the selection removes any tool.
func (s ToolSelection) Narrows() bool {
	return s.AllowSet || s.None || s.NoBuiltin || len(s.Exclude) > 0
}

// Keeps reports whether the selection keeps the tool called name; builtin
// says whether it is one of cairn's built-in tools.
func (s ToolSelection) Keeps(name string, builtin bool) bool {
	keep := !s.None && !(s.NoBuiltin && builtin)
	if s.AllowSet {
		keep = slices.Contains(s.Allow, name)
	}
	return keep && !slices.Contains(s.Exclude, name)
}

// Unknown returns the names the selection gives that are no built-in tool
// and cannot be an MCP tool's (those are known only once their server is
// ready).
func (s ToolSelection) Unknown(builtin map[string]bool) []string {
	var unknown []string
	for _, name := range append(slices.Clone(s.Allow), s.Exclude...) {
		if !builtin[name] && !strings.HasPrefix(name, "mcp") && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	return unknown
}

// Apply returns the tools of all that the selection keeps, in order; the
// first builtin of them are cairn's built-in tools. unknown are names the
// selection gives that no tool has.
func (s ToolSelection) Apply(all []core.Tool, builtin int) (kept []core.Tool, unknown []string) {
	for _, name := range append(slices.Clone(s.Allow), s.Exclude...) {
		if !slices.ContainsFunc(all, func(t core.Tool) bool { return t.Spec().Name == name }) && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	for i, t := range all {
		if s.Keeps(t.Spec().Name, i < builtin) {
			kept = append(kept, t)
		}
	}
	return kept, unknown
}

// toolNames splits a comma-separated list of tool names.
func toolNames(v string) []string {
	var out []string
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// themeNotes are the notes for theme flags given to a run without the
// interactive interface, which has no theme.
func (p *PiFlags) themeNotes(tui bool) []string {
	if tui {
		return nil
	}
	var notes []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"--theme", len(p.ThemePaths) > 0}, {"--use-theme", p.UseTheme != ""}, {"--no-themes", p.NoThemes}} {
		if f.set {
			notes = append(notes, f.name+" has no effect in cairn without the interactive interface: only it has a theme")
		}
	}
	return notes
}

// noEffect returns a flag setter that accepts the flag and notes on stderr
// why it changes nothing in cairn.
func noEffect(why string) func(o *Options, v string) error {
	return func(o *Options, _ string) error {
		o.Pi.noEffect = append(o.Pi.noEffect, why)
		return nil
	}
}

// piFlagSpecs are pi 0.87's flags beyond cairn's own (see PiFlags).
var piFlagSpecs = []flagSpec{
	{[]string{"--append-system-prompt"}, true, func(o *Options, v string) error {
		o.Pi.AppendSystemPrompt = append(o.Pi.AppendSystemPrompt, v)
		return nil
	}},
	{[]string{"--name", "-n"}, true, func(o *Options, v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("--name needs a non-empty name")
		}
		o.Pi.Name = strings.TrimSpace(v)
		return nil
	}},
	{[]string{"--session-id"}, true, func(o *Options, v string) error {
		if v == "" || strings.ContainsAny(v, `/\`) {
			return fmt.Errorf("--session-id needs a session id (no slashes), not %q", v)
		}
		o.Pi.SessionID = v
		return nil
	}},
	{[]string{"--fork"}, true, func(o *Options, v string) error { o.Pi.Fork = v; return nil }},
	{[]string{"--tools", "-t"}, true, func(o *Options, v string) error {
		o.Pi.Tools.Allow, o.Pi.Tools.AllowSet = toolNames(v), true
		return nil
	}},
	{[]string{"--exclude-tools", "-xt"}, true, func(o *Options, v string) error {
		o.Pi.Tools.Exclude = append(o.Pi.Tools.Exclude, toolNames(v)...)
		return nil
	}},
	{[]string{"--no-tools", "-nt"}, false, func(o *Options, _ string) error { o.Pi.Tools.None = true; return nil }},
	{[]string{"--no-builtin-tools", "-nbt"}, false, func(o *Options, _ string) error { o.Pi.Tools.NoBuiltin = true; return nil }},
	{[]string{"--no-context-files", "-nc"}, false, func(o *Options, _ string) error { o.Pi.NoContextFiles = true; return nil }},
	{[]string{"--prompt-template"}, true, func(o *Options, v string) error {
		o.Pi.PromptTemplates = append(o.Pi.PromptTemplates, v)
		return nil
	}},
	{[]string{"--no-prompt-templates", "-np"}, false, func(o *Options, _ string) error { o.Pi.NoPromptTemplates = true; return nil }},
	{[]string{"--approve", "-a"}, false, func(o *Options, _ string) error { o.Pi.TrustRun = true; return nil }},
	{[]string{"--no-approve", "-na"}, false, func(o *Options, _ string) error { o.Pi.NoTrust = true; return nil }},
	// cairn makes no network request of its own at startup (no update
	// check, no catalog download), so --offline is what it always does.
	{[]string{"--offline"}, false, func(*Options, string) error { return nil }},
	{[]string{"--models"}, true, noEffect("--models has no effect in cairn: cycle_model and Ctrl+P cycle through every available model")},
	// --extension names an extension to run: one of cairn's (a program,
	// or a directory with an extension.json) or one of pi's (a .ts or .js
	// module, or a directory pi would load), which the pi extension host
	// runs (docs/extensions.md).
	{[]string{"--extension", "-e"}, true, func(o *Options, v string) error {
		if v == "" {
			return fmt.Errorf("--extension needs the path of an extension: a program, or a pi extension (.ts or .js file, or its directory)")
		}
		o.Extensions = append(o.Extensions, v)
		return nil
	}},
	{[]string{"--no-extensions", "-ne"}, false, func(o *Options, _ string) error { o.NoExtensions = true; return nil }},
	{[]string{"--skill"}, true, func(o *Options, v string) error { o.Pi.Skills = append(o.Pi.Skills, v); return nil }},
	{[]string{"--no-skills", "-ns"}, false, func(o *Options, _ string) error { o.Pi.NoSkills = true; return nil }},
	{[]string{"--theme"}, true, func(o *Options, v string) error { o.Pi.ThemePaths = append(o.Pi.ThemePaths, v); return nil }},
	{[]string{"--use-theme"}, true, func(o *Options, v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("--use-theme needs a theme name")
		}
		o.Pi.UseTheme = v
		return nil
	}},
	{[]string{"--no-themes"}, false, func(o *Options, _ string) error { o.Pi.NoThemes = true; return nil }},
	{[]string{"--verbose"}, false, noEffect("--verbose has no effect in cairn: its startup is always quiet")},
	{[]string{"--tui-mode"}, true, noEffect("--tui-mode has no effect in cairn: its interface has one layout")},
}

// piCommands are pi's subcommands (`pi remove <source>`, `pi auth ...`)
// that cairn has no counterpart for, with why and what to do instead. As
// in pi, the first word names the command, so `cairn list` is refused
// rather than sent to the model as a prompt.
var piCommands = map[string]string{
	"remove":    "cairn only installs pi packages (`cairn install npm:NAME`); to remove one, take it out of \"packages\" in ~/.cairn/settings.json",
	"uninstall": "cairn only installs pi packages (`cairn install npm:NAME`); to remove one, take it out of \"packages\" in ~/.cairn/settings.json",
	"update":    "cairn does not update itself or pi packages; install a newer cairn the way you installed this one",
	"list":      "`cairn ext list` lists the extensions, those of pi packages included, and `cairn skills` the skills",
	"config":    "cairn has no package configuration screen; its settings are ~/.cairn/settings.json (pi's ~/.pi/agent/settings.json is read beneath it)",
	"auth":      "cairn has no auth command; it reads the API keys and OAuth tokens in pi's ~/.pi/agent/auth.json (refreshing an expiring token as pi does), `cairn login PROVIDER` logs in, and `cairn --list-models` shows which providers have a key",
}

// piCommandError is the refusal of pi's subcommand name, or nil when name
// is none of them.
func piCommandError(name string) error {
	why, ok := piCommands[name]
	if !ok {
		return nil
	}
	return fmt.Errorf("`pi %s` is a pi command cairn does not have: %s. To send %q as a prompt, quote it: `cairn -p -- \"%s ...\"` (each word on its own would be a prompt of its own, as in pi)", name, why, name, name)
}
