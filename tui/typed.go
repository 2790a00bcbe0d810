package tui

import (
	"regexp"
	"strings"
)

// typedPrompt is what the person typed to send a message whose text was
// made from it: "/skill:name args" became the skill's body in a <skill>
// block followed by args, "/template args" became the template's text.
// The transcript and the rewind picker show the typed form, with the
// made text behind ctrl+o.
type typedPrompt struct {
	kind string // "skill", "template" or "command"
	name string // the skill's, template's or command's name
	args string // the words after the command
}

// command is the prompt as it was typed: "/skill:name args".
func (p typedPrompt) command() string {
	name := p.name
	if p.kind == "skill" {
		name = "skill:" + name
	}
	return strings.TrimSpace("/" + name + " " + p.args)
}

// skillBlock matches the message /skill:name sends (skills.Skill.Command):
// the <skill> block, then the person's words after a blank line. The
// block's body cannot hold "\n</skill>" (the skill's file ends there).
var skillBlock = regexp.MustCompile(`(?s)\A<skill name="((?:[^"\\]|\\.)*)" location="(?:[^"\\]|\\.)*">\n.*?\n</skill>(?:\n\n(.*))?\z`)

// parseSkillPrompt reads a skill's name and the person's words from the
// text of a /skill:name message; ok is false for any other text.
func parseSkillPrompt(text string) (p typedPrompt, ok bool) {
	m := skillBlock.FindStringSubmatch(text)
	if m == nil {
		return typedPrompt{}, false
	}
	return typedPrompt{kind: "skill", name: unquoteGo(m[1]), args: strings.TrimSpace(m[2])}, true
}

// unquoteGo undoes the %q quoting of a name, keeping it as written when
// it does not parse.
func unquoteGo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// typedPrompts remembers, for this TUI's life, the expanded text of each
// template the person ran and what they typed, so the message shows as
// typed when it comes back from the agent. A resumed session's templates
// show expanded: the session file keeps only what the model read.
type typedPrompts struct {
	byText map[string]typedPrompt
}

// remember records that text was made from p.
func (t *typedPrompts) remember(text string, p typedPrompt) {
	if t.byText == nil {
		t.byText = map[string]typedPrompt{}
	}
	t.byText[text] = p
}

// lookup says how a user message's text was typed: a skill's block is
// read from the text itself, a template from what was remembered.
func (t *typedPrompts) lookup(text string) (typedPrompt, bool) {
	if p, ok := parseSkillPrompt(text); ok {
		return p, true
	}
	p, ok := t.byText[text]
	return p, ok
}

// promptLabel is a prompt's one-line label in pickers (rewind): what was
// typed when it is known, else the text.
func (t *typedPrompts) promptLabel(text string) string {
	if p, ok := t.lookup(text); ok {
		return p.command()
	}
	return text
}
