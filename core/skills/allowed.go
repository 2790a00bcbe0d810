package skills

import (
	"path"
	"strings"

	"github.com/cairn-dev/cairn/core/approval"
)

// Grant turns the skill's allowed-tools (Claude Code's names and rule
// forms) into the approval rules its /skill:name prompt grants for that
// prompt (approval.Gate.GrantTurn), in the narrowest form cairn can say:
//
//	Bash(git add:*), Bash(git add *)  bash: commands starting "git add"
//	Bash(npm test)                    bash: exactly "npm test"
//	Edit, Write, MultiEdit            edit or write: files in the project
//	Edit(src/**)                      edit: files under src/
//	mcp__server__tool                 that MCP tool
//
// Reading tools (Read, Grep, Glob, LS) and TodoWrite need no grant in the
// project. Everything else is returned in refused with why: a bare Bash
// or Bash(*) (every command: a file's say-so is not enough for that), a
// pattern with "*" elsewhere, an absolute or parent path, a tool cairn
// does not have.
func (sk Skill) Grant() (rules []approval.Rule, refused []string) {
	for _, t := range sk.AllowedTools {
		name, arg, hasArg := strings.Cut(t, "(")
		if hasArg {
			if !strings.HasSuffix(arg, ")") {
				refused = append(refused, t+": not Tool(pattern)")
				continue
			}
			arg = strings.TrimSpace(strings.TrimSuffix(arg, ")"))
		}
		switch lower := strings.ToLower(strings.TrimSpace(name)); {
		case lower == "bash":
			r, why := bashRule(arg)
			if why != "" {
				refused = append(refused, t+": "+why)
				continue
			}
			rules = append(rules, r)
		case lower == "edit" || lower == "multiedit" || lower == "write":
			tool := "edit"
			if lower == "write" {
				tool = "write"
			}
			p, why := pathRule(arg)
			if why != "" {
				refused = append(refused, t+": "+why)
				continue
			}
			rules = append(rules, approval.Rule{Tool: tool, Path: p})
		case lower == "read" || lower == "grep" || lower == "glob" || lower == "ls" || lower == "todowrite":
			// Asked about only outside the project, where a skill's word
			// does not reach.
		case strings.HasPrefix(lower, "mcp__") && !hasArg && !strings.Contains(name, "*"):
			rules = append(rules, approval.Rule{Tool: strings.TrimSpace(name)})
		default:
			refused = append(refused, t+": not a tool cairn can grant")
		}
	}
	return rules, refused
}

// bashRule is the command rule of a Bash(...) pattern, or why there is
// none.
func bashRule(pattern string) (approval.Rule, string) {
	prefix, isPrefix := strings.CutSuffix(pattern, ":*")
	if !isPrefix {
		prefix, isPrefix = strings.CutSuffix(pattern, " *")
	}
	prefix = strings.TrimSpace(prefix)
	switch {
	case prefix == "" || prefix == "*":
		return approval.Rule{}, "every command: cairn asks as usual"
	case strings.ContainsAny(prefix, "*?"):
		return approval.Rule{}, "a pattern with * inside: cairn asks as usual"
	}
	return approval.Rule{Tool: "bash", Command: prefix, Exact: !isPrefix}, ""
}

// pathRule is the project-relative path of an Edit(...) pattern ("." for
// none), or why there is none.
func pathRule(pattern string) (string, string) {
	if pattern == "" {
		return ".", ""
	}
	p := strings.TrimSuffix(strings.TrimSuffix(pattern, "/**"), "/*")
	switch {
	case p == "**" || p == "*":
		return ".", ""
	case strings.ContainsAny(p, "*?[{"):
		return "", "a pattern cairn's rules cannot say: cairn asks as usual"
	case path.IsAbs(p) || strings.HasPrefix(p, "~") || p == ".." || strings.HasPrefix(path.Clean(p), "../"):
		return "", "outside the project: cairn asks as usual"
	}
	return path.Clean(p), ""
}
