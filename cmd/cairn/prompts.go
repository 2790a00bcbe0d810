package main

import "github.com/cairn-dev/cairn/core/prompts"

// loadPrompts reads the prompt templates every mode offers: the person's
// (~/.cairn/prompts) and the project's (.cairn/prompts in cwd).
//
// The project's come with the repository, from whoever wrote it; they are
// loaded as pi loads them once a project is trusted. Until cairn asks
// whether to trust a project, they are loaded unasked, and a template of
// the person's own wins over the project's of the same name.
func loadPrompts(env environment, cwd string) (prompts.Templates, []error) {
	return prompts.Load(prompts.UserDir(env.dir), prompts.ProjectDir(cwd))
}
