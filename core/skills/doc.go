// Package skills finds the skills a session offers the model, in the Agent
// Skills format: a directory holding SKILL.md, whose front matter gives the
// skill's name and description and whose body, with the files beside it,
// tells the model how to do one kind of work.
//
// The system prompt lists each skill's name, description and path only
// (Set.Prompt); the model reads SKILL.md with its read tool when a task
// matches, and a person runs one on purpose with /skill:name (Command).
// Skills come from the person's directories first (~/.cairn/skills, then
// other agents' ~/.claude/skills, ~/.pi/agent/skills, ~/.agents/skills),
// then, once the project is trusted, from the project's (.cairn/skills,
// .claude/skills, .pi/skills, .agents/skills). Where two have one name,
// the first found wins and the other is listed as hidden. A skill that
// cannot be used is reported as a Problem, never dropped in silence.
//
// Which files are skills follows pi 0.87.1's rules (see Read). A skill's
// Claude Code allowed-tools become approval rules (Skill.Grant) that the
// prompt running it may use without asking.
package skills
