package main

import (
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/skills"
	"github.com/cairn-dev/cairn/core/subagent"
	"github.com/cairn-dev/cairn/core/sysprompt"
)

// loadedParts is what buildApp loaded, kept for front ends that list it
// (the TUI's welcome): nothing here is read again to list it.
type loadedParts struct {
	contextFiles []string
	skills       skills.Set
	hooks        *hook.Hooks
	agents       *subagent.Tool
}

// contextPaths are the paths of the context files the prompt holds.
func contextPaths(files []sysprompt.ContextFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// loadedList names what the session loaded, by kind, as pi's start-up
// lists them: paths under the working directory relative to it, others
// under home with ~. MCP servers and extensions are named as configured
// (they may still be starting).
func (a *app) loadedList(home string) []loadedKind {
	short := func(p string) string {
		if r, err := filepath.Rel(a.cwd, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		if rest, ok := strings.CutPrefix(p, home+"/"); ok && home != "" {
			return "~/" + rest
		}
		return p
	}
	var ctx, sk, mcps, exts, hooks, agents []string
	for _, p := range a.loaded.contextFiles {
		ctx = append(ctx, short(p))
	}
	for _, s := range a.loaded.skills.Skills {
		sk = append(sk, s.Name)
	}
	for _, s := range a.mcp.statuses() {
		mcps = append(mcps, s.Server.Name)
	}
	if a.extensions != nil {
		for _, s := range a.extensions.Statuses() {
			exts = append(exts, s.Config.Name)
		}
	}
	if h := a.loaded.hooks; h != nil {
		for _, e := range hook.Events {
			if h.Has(e) {
				hooks = append(hooks, string(e))
			}
		}
	}
	if a.loaded.agents != nil {
		for _, d := range a.loaded.agents.Agents() {
			if d.Path != "" { // the person's and the project's, not the built-in ones
				agents = append(agents, d.Name)
			}
		}
	}
	return []loadedKind{
		{"Context", ctx}, {"Skills", sk}, {"MCP", mcps},
		{"Extensions", exts}, {"Hooks", hooks}, {"Agents", agents},
	}
}

// loadedKind is one kind of thing loaded and the names loaded.
type loadedKind struct {
	label string
	items []string
}
