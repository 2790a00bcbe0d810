package main

import "github.com/cairn-dev/cairn/core/prompts"

// loadPrompts reads the prompt templates every mode offers: the person's
// (~/.cairn/prompts) and the project's (.cairn/prompts in cwd).
//
// The project's come with the repository, from whoever wrote it, so they
// are loaded only once the project is trusted (see projectTrustFor); a
// template of the person's own wins over the project's of the same name.
func loadPrompts(env environment, cwd string, t projectTrust) (prompts.Templates, []error) {
	project := ""
	if t.trusted() {
		project = prompts.ProjectDir(cwd)
	}
	return prompts.Load(prompts.UserDir(env.dir), project)
}
