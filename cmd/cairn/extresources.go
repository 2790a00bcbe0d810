package main

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/piext"
)

// discoverResources adds the skills, prompt templates and themes pi
// extensions offer (resources_discover) to what this run loads, as paths
// given on the command line are (--skill, --prompt-template, --theme).
// Only when an extension's source names the event does the start wait
// for the extensions (bounded) to ask them; otherwise it waits for
// nothing. Templates a print run expands were read before, and an
// extension's resources do not reach them.
func discoverResources(streams IOStreams, opts *Options, exts *extension.Manager, cwd string) {
	var files []string
	for _, st := range exts.Statuses() {
		if st.Config.Name == piext.Name && len(st.Config.Args) > 1 {
			files = append(files, st.Config.Args[1:]...)
		}
	}
	if len(files) == 0 || !piext.Mentions(files, "resources_discover") {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), extensionFlagWait)
	defer cancel()
	exts.WaitInitialized(ctx)
	res, errs := exts.DiscoverResources(ctx, cwd)
	for _, err := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	if len(res.SkillPaths) > 0 {
		opts.Pi.Skills = append(opts.Pi.Skills, res.SkillPaths...)
		opts.skills = nil // read again, with these
	}
	opts.Pi.PromptTemplates = append(opts.Pi.PromptTemplates, res.PromptPaths...)
	opts.Pi.ThemePaths = append(opts.Pi.ThemePaths, res.ThemePaths...)
}
