package agent

import "github.com/cairn-dev/cairn/core"

// PromptOptions are what the system prompt is built from, as pi's
// before_agent_start shows them to extensions (its systemPromptOptions):
// the tools come from each run, the rest from the session's set-up.
type PromptOptions struct {
	// Custom replaces cairn's base prompt (--system-prompt, SYSTEM.md);
	// Append is added after it (--append-system-prompt, APPEND_SYSTEM.md).
	Custom, Append string
	// Cwd is the working directory the prompt names.
	Cwd string
	// ContextFiles are the instruction files in the prompt (AGENTS.md,
	// CLAUDE.md), in order.
	ContextFiles []PromptFile
	// Skills are the skills the model is offered.
	Skills []PromptSkill
}

// PromptFile is a context file in the prompt: its path and contents.
type PromptFile struct {
	Path, Content string
}

// PromptSkill is a skill the model is offered: its name, what it is for,
// its SKILL.md and the directory holding it.
type PromptSkill struct {
	Name, Description, Path, Dir string
}

// toolNames are the names of tools, in order.
func toolNames(tools []core.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Spec().Name
	}
	return out
}
