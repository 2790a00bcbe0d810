package subagent

import (
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// Definition is one kind of subagent: what the task tool's subagent_type
// names.
type Definition struct {
	// Name is what subagent_type says; Description tells the model when
	// to use it.
	Name        string
	Description string
	// Tools are the names of the parent's tools the child may use; nil
	// means all of them. Never task or exit_plan_mode (neverInherited).
	Tools []string
	// Disallowed are tools the child never gets, even when Tools (or the
	// parent's all) has them: Claude Code's disallowedTools.
	Disallowed []string
	// Model names the child's model ("provider/id" or an id of the
	// parent's provider); "" or "inherit" means the parent's.
	Model string
	// Thinking is the child's thinking level; "" means the parent's.
	Thinking core.ThinkingLevel
	// Prompt is the child's instructions, added to cairn's system prompt.
	Prompt string
	// Path is the file the definition came from; "" for a built-in one.
	Path string
}

// ExploreTools are the tools of the built-in explore agent: they only
// read (no write, edit or bash, not even a command that only reads, so it
// never has anything to ask).
var ExploreTools = []string{"read", "grep", "find", "ls"}

// Builtin returns the built-in definitions: general-purpose (every tool of
// the parent but task) and explore (ExploreTools only).
func Builtin() []Definition {
	return []Definition{
		{
			Name:        "general-purpose",
			Description: "General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks. It has the same tools as you (but task).",
			Prompt:      "You are a subagent: another agent gave you the task below. Do it with the tools you have, then answer with a concise report of what you found or did; your final answer is all the other agent sees.",
		},
		{
			Name:        "explore",
			Description: "Fast read-only agent for exploring a codebase: finding files, searching code, answering questions about it. It cannot change anything.",
			Tools:       ExploreTools,
			Prompt:      "You are a read-only exploration subagent: another agent gave you the question below. Search and read the code to answer it; you cannot change files or run commands. Answer with a concise report, naming the files and lines that matter; your final answer is all the other agent sees.",
		},
	}
}

// neverInherited are the parent's tools no child gets, whatever its
// definition says: task (a child starts no children) and exit_plan_mode
// (a child never changes its parent's mode).
var neverInherited = []string{ToolName, "exit_plan_mode"}

// keeps says whether the definition lets the child use a tool of the
// parent's named name.
func (d Definition) keeps(name string) bool {
	if slices.Contains(neverInherited, name) {
		return false
	}
	if slices.Contains(d.Disallowed, name) {
		return false
	}
	return d.Tools == nil || slices.Contains(d.Tools, name)
}

// Set is the definitions a task tool offers, by name.
type Set struct {
	defs []Definition
	// Hidden are definitions another of the same name hid.
	Hidden []Definition
}

// NewSet returns the set of defs in order of precedence: a later
// definition of a name already taken is hidden, and the built-in ones
// come last.
func NewSet(defs ...Definition) *Set {
	s := &Set{}
	for _, d := range append(slices.Clone(defs), Builtin()...) {
		if s.Find(d.Name) != nil {
			s.Hidden = append(s.Hidden, d)
			continue
		}
		s.defs = append(s.defs, d)
	}
	return s
}

// Find returns the definition named name, or nil.
func (s *Set) Find(name string) *Definition {
	for i := range s.defs {
		if strings.EqualFold(s.defs[i].Name, name) {
			return &s.defs[i]
		}
	}
	return nil
}

// All returns the definitions, sorted by name.
func (s *Set) All() []Definition {
	out := slices.Clone(s.defs)
	slices.SortFunc(out, func(a, b Definition) int { return strings.Compare(a.Name, b.Name) })
	return out
}
