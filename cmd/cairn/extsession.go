package main

import (
	"path/filepath"
	"sync"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/skills"
)

// slashBook is what an extension's getCommands lists (protocol version
// 2's get_commands): the extensions' commands, then the prompt templates
// and skills the front end loaded, which it gives with setTemplates once
// it has read them.
type slashBook struct {
	mu        sync.Mutex
	exts      *extension.Manager
	templates prompts.Templates
}

// setTemplates gives the front end's prompt templates (skills among them).
func (b *slashBook) setTemplates(ts prompts.Templates) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.templates = ts
	b.mu.Unlock()
}

// list is pi's getCommands: extensions', prompts', skills', in that order.
func (b *slashBook) list() []extension.SlashCommand {
	var out []extension.SlashCommand
	if b.exts != nil {
		for _, c := range b.exts.Commands() {
			out = append(out, extension.SlashCommand{Name: c.Name, Description: c.Description, Source: "extension"})
		}
	}
	b.mu.Lock()
	ts := b.templates
	b.mu.Unlock()
	var skillCmds []extension.SlashCommand
	for _, t := range ts {
		c := extension.SlashCommand{Name: t.Name, Description: t.Description, Source: "prompt"}
		if t.Path != "" {
			c.SourceInfo = &extension.SourceInfo{Path: t.Path, Source: "local", Scope: string(t.Scope)}
		}
		if skills.IsCommand(t) {
			c.Source = "skill"
			if c.SourceInfo != nil {
				c.SourceInfo.BaseDir = filepath.Dir(t.Path)
			}
			skillCmds = append(skillCmds, c)
			continue
		}
		out = append(out, c)
	}
	return append(out, skillCmds...)
}

// SlashCommands lists the session's slash commands for an extension's
// getCommands (extension.CommandLister).
func (h extensionHost) SlashCommands() []extension.SlashCommand {
	if h.slash == nil {
		return nil
	}
	return h.slash.list()
}
