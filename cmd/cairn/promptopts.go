package main

import (
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/skills"
	"github.com/cairn-dev/cairn/core/sysprompt"
)

// promptOptions is what the system prompt is built from, as extensions'
// before_agent_start shows it (pi's systemPromptOptions).
func promptOptions(cwd, custom, appendText string, files []sysprompt.ContextFile, set skills.Set) agent.PromptOptions {
	po := agent.PromptOptions{Custom: custom, Append: appendText, Cwd: cwd}
	for _, f := range files {
		po.ContextFiles = append(po.ContextFiles, agent.PromptFile{Path: f.Path, Content: f.Content})
	}
	for _, sk := range set.Skills {
		po.Skills = append(po.Skills, agent.PromptSkill{Name: sk.Name, Description: sk.Description, Path: sk.Path, Dir: sk.Dir})
	}
	return po
}
