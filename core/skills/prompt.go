package skills

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/frontmatter"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Prompt is the system prompt's list of skills: how to use them, then each
// one the model may choose (not ModelHidden) with its name, description
// and location, in the Agent Skills XML form pi also uses. It is "" when
// there are none.
func (s Set) Prompt() string {
	var b strings.Builder
	for _, sk := range s.Skills {
		if sk.ModelHidden {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("The following skills provide specialized instructions for specific tasks.\n" +
				"Use the read tool to load a skill's file when the task matches its description.\n" +
				"When a skill file references a relative path, resolve it against the skill directory (the directory holding SKILL.md) and use that absolute path in tool commands.\n\n" +
				"<available_skills>")
		}
		fmt.Fprintf(&b, "\n  <skill>\n    <name>%s</name>\n    <description>%s</description>\n    <location>%s</location>\n  </skill>",
			escapeXML(sk.Name), escapeXML(sk.Description), escapeXML(filepath.ToSlash(sk.Path)))
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString("\n</available_skills>")
	return b.String()
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func escapeXML(s string) string { return xmlEscaper.Replace(s) }

// CommandPrefix starts a message that runs a skill: "/skill:name args".
const CommandPrefix = "skill:"

// Command is the message /skill:name sends: the skill's body, read now,
// in a <skill> block that names its file and directory (pi's form),
// followed by args (the words after the command) when there are any and
// the body does not place them itself. In the body, as Claude Code fills
// them in: $ARGUMENTS is args, $ARGUMENTS[N] the Nth argument from 0
// (quotes group words, as a shell does), ${CLAUDE_SKILL_DIR} and
// {baseDir} (OpenClaw's) the skill's directory.
func (sk Skill) Command(args string) (string, error) {
	b, err := regfile.Read(sk.Path, regfile.MaxText)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", sk.Name, err)
	}
	doc, err := frontmatter.Parse(string(b))
	if err != nil {
		return "", fmt.Errorf("skill %s: %s: %w", sk.Name, sk.Path, err)
	}
	body := strings.TrimSpace(doc.Body)
	if body == "" {
		return "", errors.New("skill " + sk.Name + " has no instructions after its front matter")
	}
	args = strings.TrimSpace(args)
	placed := strings.Contains(body, "$ARGUMENTS")
	body = sk.fill(body, args)
	text := fmt.Sprintf("<skill name=%q location=%q>\nReferences are relative to %s.\n\n%s\n</skill>",
		sk.Name, filepath.ToSlash(sk.Path), filepath.ToSlash(sk.Dir), body)
	if args != "" && !placed {
		text += "\n\n" + args
	}
	return text, nil
}

// placeholders finds what fill replaces.
var placeholders = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$\{CLAUDE_SKILL_DIR\}|\{baseDir\}`)
})

// fill replaces the body's placeholders in one pass, so an argument that
// looks like one is sent as typed. $0, $1, ... (Claude Code's shorthand)
// stay as written: skill bodies are full of shell ("awk '{print $1}'")
// that pi sends unchanged.
func (sk Skill) fill(body, args string) string {
	var words []string
	parsed := false
	dir := filepath.ToSlash(sk.Dir)
	return placeholders().ReplaceAllStringFunc(body, func(m string) string {
		switch {
		case m == "$ARGUMENTS":
			return args
		case m == "${CLAUDE_SKILL_DIR}" || m == "{baseDir}":
			return dir
		}
		if !parsed {
			words, parsed = prompts.ParseArgs(args), true
		}
		n, err := strconv.Atoi(m[len("$ARGUMENTS[") : len(m)-1])
		if err != nil || n >= len(words) {
			return ""
		}
		return words[n]
	})
}

// Templates makes each skill a prompt template named "skill:<name>", so
// every front end offers /skill:name where it offers templates: completion
// and help in the TUI, get_commands in rpc mode, available commands in
// ACP. Running one reads the skill's file then (Skill.Command).
func (s Set) Templates() prompts.Templates {
	out := make(prompts.Templates, 0, len(s.Skills))
	for _, sk := range s.Skills {
		scope := prompts.ScopeUser
		if sk.Source == SourceProject {
			scope = prompts.ScopeProject
		}
		out = append(out, prompts.Template{Name: CommandPrefix + sk.Name, Description: sk.Description,
			Path: sk.Path, Scope: scope, Run: sk.Command})
	}
	return out
}

// IsCommand reports whether t is a skill's command made by Templates.
func IsCommand(t prompts.Template) bool {
	return t.Run != nil && strings.HasPrefix(t.Name, CommandPrefix)
}
