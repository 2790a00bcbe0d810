package subagent

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/frontmatter"
	"github.com/cairn-dev/cairn/core/regfile"
)

// MaxDefinitionSize bounds an agent definition file.
const MaxDefinitionSize = 256 << 10

// Places says where definitions are looked for.
type Places struct {
	// Home is the person's home directory; CairnDir cairn's own
	// (~/.cairn, or CAIRN_DIR).
	Home, CairnDir string
	// Project is the project's root; its definitions count only when
	// Trusted.
	Project string
	Trusted bool
	// Others adds other agents' directories (~/.claude/agents,
	// .claude/agents): the otherAgentDirs setting.
	Others bool
}

// Dirs returns the directories holding definitions, first the one that
// wins a name: the person's own (cairn's, then Claude Code's), then the
// project's, when trusted.
func (p Places) Dirs() []string {
	var dirs []string
	if p.CairnDir != "" {
		dirs = append(dirs, filepath.Join(p.CairnDir, "agents"))
	}
	if p.Others && p.Home != "" {
		dirs = append(dirs, filepath.Join(p.Home, ".claude", "agents"))
	}
	if p.Trusted && p.Project != "" {
		dirs = append(dirs, filepath.Join(p.Project, ".cairn", "agents"))
		if p.Others {
			dirs = append(dirs, filepath.Join(p.Project, ".claude", "agents"))
		}
	}
	return dirs
}

// Load reads the definitions (*.md) of dirs, in order, each directory's
// files by name; a missing directory has none. A file that cannot be read
// or has no name or description is left out and reported in problems,
// as are keys it does not know (the rest of such a file is used).
func Load(dirs []string) (defs []Definition, problems []error) {
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		slices.Sort(paths)
		for _, path := range paths {
			d, warn, err := ReadDefinition(path)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if warn != nil {
				problems = append(problems, warn)
			}
			defs = append(defs, d)
		}
	}
	return defs, problems
}

// ReadDefinition reads one definition file: front matter name,
// description, tools (a list, or names separated by commas), model,
// thinking; the body is the prompt. Claude Code's tool names (Read, Grep,
// Glob, LS, Bash, Edit, MultiEdit, Write) are read as cairn's. warn
// reports keys it does not know; err a file it cannot use.
func ReadDefinition(path string) (d Definition, warn, err error) {
	data, err := regfile.Read(path, MaxDefinitionSize)
	if err != nil {
		return d, nil, fmt.Errorf("agent definition %s: %w", path, err)
	}
	return parseDefinition(path, string(data))
}

func parseDefinition(path, text string) (d Definition, warn, err error) {
	fail := func(err error) (Definition, error, error) {
		return Definition{}, nil, fmt.Errorf("agent definition %s: %w", path, err)
	}
	doc, err := frontmatter.Parse(text)
	if err != nil {
		return fail(err)
	}
	if !doc.Found {
		return fail(fmt.Errorf("no front matter: start the file with a \"---\" block giving name and description"))
	}
	d.Path, d.Prompt = path, strings.TrimSpace(doc.Body)
	if d.Name, err = doc.String("name"); err != nil {
		return fail(err)
	}
	if d.Description, err = doc.String("description"); err != nil {
		return fail(err)
	}
	if d.Model, err = doc.String("model"); err != nil {
		return fail(err)
	}
	if d.Name = strings.TrimSpace(d.Name); !validName(d.Name) {
		return fail(fmt.Errorf("name %q: use letters, digits, '-' and '_' (1 to 64 characters)", d.Name))
	}
	if strings.TrimSpace(d.Description) == "" {
		return fail(fmt.Errorf("description is missing: say when the agent should be used"))
	}
	tools, err := doc.List("tools")
	if err != nil {
		return fail(err)
	}
	if f, ok := doc.Get("tools"); ok {
		d.Tools = []string{}
		if f.Value.Kind == frontmatter.Null {
			d.Tools = nil
		}
	}
	for _, t := range tools {
		if t = strings.TrimSpace(t); t != "" {
			d.Tools = append(d.Tools, toolName(t))
		}
	}
	level, err := doc.String("thinking")
	if err != nil {
		return fail(err)
	}
	if level != "" {
		if d.Thinking, err = core.ParseThinkingLevel(level); err != nil {
			return fail(fmt.Errorf("thinking: %w", err))
		}
	}
	if unknown := doc.Unknown("name", "description", "tools", "model", "thinking"); len(unknown) > 0 {
		keys := make([]string, len(unknown))
		for i, f := range unknown {
			keys[i] = fmt.Sprintf("%s (line %d)", f.Key, f.Line)
		}
		warn = fmt.Errorf("agent definition %s: ignored keys cairn does not know: %s", path, strings.Join(keys, ", "))
	}
	return d, warn, nil
}

// claudeTools maps Claude Code's tool names to cairn's.
var claudeTools = map[string]string{"read": "read", "grep": "grep", "glob": "find", "ls": "ls", "bash": "bash",
	"edit": "edit", "multiedit": "edit", "write": "write", "task": ToolName}

// toolName is the cairn name of a definition's tool name; names it does
// not map (MCP tools) stay as written.
func toolName(name string) string {
	if n, ok := claudeTools[strings.ToLower(name)]; ok {
		return n
	}
	return name
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
