package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/skills"
)

// skillGrantInterceptor honours a skill's allowed-tools as Claude Code
// does: the prompt that runs the skill (/skill:name, typed by the person)
// may use those tools without asking, and the grant ends with the
// person's next message. Only the forms skills.Skill.Grant can say are
// granted; the rest is told, and asked about as usual.
func skillGrantInterceptor(set skills.Set, gate *approval.Gate, tell func(string)) agent.Interceptor {
	return agent.Interceptor{
		Name: "skill allowed-tools",
		// A subagent's prompt is the model's words: it neither grants
		// nor clears the person's grant.
		NotForChildren: true,
		Input: func(context.Context, agent.InputEvent) (agent.InputResult, error) {
			gate.ClearTurn()
			return agent.InputResult{}, nil
		},
		BeforeAgentStart: func(_ context.Context, e agent.AgentStartEvent) (agent.AgentStartResult, error) {
			gate.ClearTurn()
			sk, ok := invokedSkill(set, e.Prompt)
			if !ok || len(sk.AllowedTools) == 0 {
				return agent.AgentStartResult{}, nil
			}
			rules, refused := sk.Grant()
			if err := gate.GrantTurn("skill "+sk.Name, rules); err != nil {
				tell(fmt.Sprintf("skill %s: allowed-tools not granted: %v", sk.Name, err))
				return agent.AgentStartResult{}, nil
			}
			if len(rules) > 0 {
				names := make([]string, len(rules))
				for i, r := range rules {
					names[i] = r.String()
				}
				tell(fmt.Sprintf("skill %s may use without asking, for this prompt: %s", sk.Name, strings.Join(names, "; ")))
			}
			if len(refused) > 0 {
				tell(fmt.Sprintf("skill %s: allowed-tools not granted (asked as usual): %s", sk.Name, strings.Join(refused, "; ")))
			}
			return agent.AgentStartResult{}, nil
		},
	}
}

// invokedSkill finds the skill a prompt runs: "/skill:name args" as typed,
// or the expansion skills.Skill.Command made of it, which names the
// skill's file.
func invokedSkill(set skills.Set, prompt string) (skills.Skill, bool) {
	if rest, ok := strings.CutPrefix(prompt, "/"+skills.CommandPrefix); ok {
		name, _, _ := strings.Cut(rest, " ")
		return set.Find(strings.TrimSpace(name))
	}
	for _, sk := range set.Skills {
		if strings.HasPrefix(prompt, fmt.Sprintf("<skill name=%q location=%q>", sk.Name, filepath.ToSlash(sk.Path))) {
			return sk, true
		}
	}
	return skills.Skill{}, false
}
