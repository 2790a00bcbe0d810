package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/regfile"
)

// loadPrompts reads the prompt templates every mode offers: the person's
// (~/.cairn/prompts, then pi's ~/.pi/agent/prompts) and the project's
// (.cairn/prompts in cwd), unless
// --no-prompt-templates; then those named by --prompt-template (files or
// directories), which win over the others of the same name.
//
// The project's come with the repository, from whoever wrote it, so they
// are loaded only once the project is trusted (see projectTrustFor); a
// template of the person's own wins over the project's of the same name.
// Each skill follows as /skill:name (see skillsFor).
func loadPrompts(env environment, opts *Options, cwd string, t projectTrust) (prompts.Templates, []error) {
	var out prompts.Templates
	var errs []error
	if !opts.Pi.NoPromptTemplates {
		project := ""
		if t.trusted() {
			project = prompts.ProjectDir(cwd)
		}
		out, errs = prompts.Load(prompts.UserDir(env.dir), project)
		plugins, _ := installedPlugins(env, cwd, t.trusted())
		ts, perrs := pluginCommands(plugins)
		out, errs = append(out, ts...), append(errs, perrs...)
		if env.piDir != "" {
			// pi's own templates (~/.pi/agent/prompts), where cairn's
			// and the project's have none of the same name.
			pi, perrs := prompts.LoadDir(filepath.Join(env.piDir, "prompts"), prompts.ScopeUser)
			errs = append(errs, perrs...)
			for _, tm := range pi {
				if _, ok := out.Find(tm.Name); !ok {
					out = append(out, tm)
				}
			}
		}
	}
	for _, p := range opts.Pi.PromptTemplates {
		named, err := loadTemplatePath(p)
		if err != nil {
			errs = append(errs, err)
		}
		for _, tm := range named {
			out = slices.DeleteFunc(out, func(o prompts.Template) bool { return o.Name == tm.Name })
			out = append(out, tm)
		}
	}
	slices.SortFunc(out, func(a, b prompts.Template) int { return strings.Compare(a.Name, b.Name) })
	// Skills come after the templates, as in pi's get_commands.
	return append(out, skillsFor(env, opts, cwd, t).Templates()...), errs
}

// loadTemplatePath reads --prompt-template's path: a directory of
// templates, or one NAME.md file.
func loadTemplatePath(path string) (prompts.Templates, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--prompt-template: %w", err)
	}
	if info.IsDir() {
		ts, errs := prompts.LoadDir(path, prompts.ScopeUser)
		return ts, errors.Join(errs...)
	}
	name, ok := strings.CutSuffix(filepath.Base(path), ".md")
	if !ok || name == "" {
		return nil, fmt.Errorf("--prompt-template %s: a template is a NAME.md file or a directory of them", path)
	}
	b, err := regfile.Read(path, regfile.MaxText)
	if err != nil {
		return nil, fmt.Errorf("--prompt-template: %w", err)
	}
	tm, err := prompts.Parse(name, string(b))
	if err != nil {
		return nil, fmt.Errorf("--prompt-template %s: %w", path, err)
	}
	tm.Path, tm.Scope = path, prompts.ScopeUser
	return prompts.Templates{tm}, nil
}
