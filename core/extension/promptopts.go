package extension

import (
	"fmt"
	"regexp"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// systemPromptOptions is what the system prompt is built from, in the
// shape of pi's before_agent_start systemPromptOptions (its
// BuildSystemPromptOptions, normalized): the run's tools, the custom and
// appended prompt, the context files, the skills and the working
// directory. cairn has no per-tool snippets or guidelines to show, so
// those are empty; sections starts empty, for the extension to add to.
func systemPromptOptions(ev agent.AgentStartEvent) map[string]any {
	o := ev.Options
	files := make([]map[string]string, 0, len(o.ContextFiles))
	for _, f := range o.ContextFiles {
		files = append(files, map[string]string{"path": f.Path, "content": f.Content})
	}
	skills := make([]map[string]any, 0, len(o.Skills))
	for _, s := range o.Skills {
		skills = append(skills, map[string]any{"name": s.Name, "description": s.Description, "filePath": s.Path, "baseDir": s.Dir,
			"disableModelInvocation": false})
	}
	out := map[string]any{
		"selectedTools": nonNil(ev.Tools), "toolSnippets": map[string]string{}, "toolGuidelines": map[string][]string{},
		"promptGuidelines": []string{}, "appendSystemPrompt": o.Append, "sections": map[string]string{},
		"cwd": o.Cwd, "contextFiles": files, "skills": skills,
	}
	if o.Custom != "" {
		out["customPrompt"] = o.Custom
	}
	return out
}

// PromptSection is a section of the system prompt an extension sets in
// before_agent_start (version 2; pi's systemPromptOptions.sections).
type PromptSection struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// sectionName is what pi allows as a section's name.
var sectionName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// promptSections turns the sections an extension set into the prompt's,
// each wrapped in a tag of its name as pi writes them; an empty one is
// left out, as pi leaves it out.
func promptSections(secs []PromptSection) ([]core.PromptSection, error) {
	var out []core.PromptSection
	for _, s := range secs {
		if !sectionName.MatchString(s.Name) || s.Name == "preamble" {
			return nil, fmt.Errorf("its system prompt section name %q is not one pi allows (lower-case letters, digits, - and _, not preamble)", s.Name)
		}
		if s.Text == "" {
			continue
		}
		out = append(out, core.PromptSection{Name: s.Name, Text: "<" + s.Name + ">\n" + s.Text + "\n</" + s.Name + ">"})
	}
	return out, nil
}
