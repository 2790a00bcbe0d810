package subagent

import (
	"errors"
	"fmt"
	"io/fs"
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

// Limits on the search of a definitions directory, so a large or
// looping tree cannot make start-up slow.
const (
	// maxDefinitionDepth bounds how deep under a directory *.md files are
	// looked for.
	maxDefinitionDepth = 6
	// maxDefinitionFiles bounds the *.md files read under one directory.
	maxDefinitionFiles = 2000
)

// Load reads the definitions (*.md) of dirs, in order, and of their
// sub-directories at any depth (as Claude Code does), each directory's
// files by path; hidden directories and node_modules are skipped, and a
// missing directory has none. A file that cannot be read or has no name or
// description is left out and reported in problems, as are keys it does
// not know (the rest of such a file is used). Markdown files with no front
// matter at all (a collection's README.md) are reported together, in one
// problem per directory.
func Load(dirs []string) (defs []Definition, problems []error) {
	for _, dir := range dirs {
		paths, walkProblem := definitionFiles(dir)
		if walkProblem != nil {
			problems = append(problems, walkProblem)
		}
		var plain []string
		for _, path := range paths {
			d, warn, err := ReadDefinition(path)
			if errors.Is(err, errNoFrontMatter) {
				plain = append(plain, relative(dir, path))
				continue
			}
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if warn != nil {
				problems = append(problems, warn)
			}
			defs = append(defs, d)
		}
		if len(plain) > 0 {
			problems = append(problems, fmt.Errorf("agent definitions %s: %d Markdown file(s) without front matter are not agents: %s",
				dir, len(plain), clipList(plain, 5)))
		}
	}
	return defs, problems
}

// definitionFiles lists the *.md files under dir, sorted, within the
// limits; a problem says where the search stopped early.
func definitionFiles(dir string) ([]string, error) {
	var paths []string
	var problem error
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path != dir && !errors.Is(err, fs.ErrNotExist) {
				problem = fmt.Errorf("agent definitions %s: %w", path, err)
			}
			return nil
		}
		if e.IsDir() {
			if path != dir && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" ||
				strings.Count(relative(dir, path), "/") >= maxDefinitionDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(e.Name(), ".md") {
			return nil
		}
		if len(paths) >= maxDefinitionFiles {
			problem = fmt.Errorf("agent definitions %s: more than %d files: cairn read no more", dir, maxDefinitionFiles)
			return filepath.SkipAll
		}
		paths = append(paths, path)
		return nil
	})
	slices.Sort(paths)
	return paths, problem
}

// relative is path under dir, with "/" between its parts.
func relative(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// clipList joins the first n of items, saying how many more there are.
func clipList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// errNoFrontMatter marks a file that is plain Markdown, not a definition.
var errNoFrontMatter = errors.New("no front matter: start the file with a \"---\" block giving name and description")

// ReadDefinition reads one definition file: front matter name,
// description, tools and disallowedTools (a list, or names separated by
// commas), model, thinking; the body is the prompt. Claude Code's tool
// names (claudeTools) are read as cairn's. warn reports keys it does not
// know and tools cairn lacks; err a file it cannot use.
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
		return fail(errNoFrontMatter)
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
		return fail(fmt.Errorf("name %q: use letters, digits, '-', '_' and '.' (1 to 64 characters)", d.Name))
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
	var absent []string
	for _, t := range tools {
		if t = strings.TrimSpace(t); t != "" {
			d.Tools = append(d.Tools, toolName(t))
			if slices.Contains(claudeOnly, strings.ToLower(t)) {
				absent = append(absent, t)
			}
		}
	}
	denied, err := doc.List("disallowedTools")
	if err != nil {
		return fail(err)
	}
	for _, t := range denied {
		// "Bash(rm:*)" denies part of a tool in Claude Code; cairn has no
		// such rule for a child, so it takes the whole tool away.
		if base, _, ok := strings.Cut(t, "("); ok {
			t = base
		}
		if t = strings.TrimSpace(t); t != "" {
			d.Disallowed = append(d.Disallowed, toolName(t))
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
	var notes []string
	if unknown := doc.Unknown("name", "description", "tools", "disallowedTools", "model", "thinking"); len(unknown) > 0 {
		keys := make([]string, len(unknown))
		for i, f := range unknown {
			keys[i] = fmt.Sprintf("%s (line %d)", f.Key, f.Line)
		}
		notes = append(notes, "ignored keys cairn does not know: "+strings.Join(keys, ", "))
	}
	if len(absent) > 0 {
		notes = append(notes, "tools cairn has no equivalent of: "+strings.Join(absent, ", "))
	}
	if len(notes) > 0 {
		warn = fmt.Errorf("agent definition %s: %s", path, strings.Join(notes, "; "))
	}
	return d, warn, nil
}

// claudeTools maps Claude Code's tool names (its current tool list, and
// the older names of renamed tools) to cairn's.
var claudeTools = map[string]string{"read": "read", "grep": "grep", "glob": "find", "ls": "ls", "bash": "bash",
	"edit": "edit", "multiedit": "edit", "write": "write", "task": ToolName, "agent": ToolName,
	"todowrite": "todo_write", "bashoutput": "bash_output", "taskoutput": "bash_output",
	"killshell": "kill_shell", "killbash": "kill_shell", "taskstop": "kill_shell",
	"exitplanmode": "exit_plan_mode"}

// claudeOnly are Claude Code's tools cairn has no equivalent of: a
// definition that lists one is told so.
var claudeOnly = []string{"webfetch", "websearch", "notebookedit", "notebookread", "askuserquestion", "skill", "slashcommand",
	"enterplanmode", "lsp"}

// toolName is the cairn name of a definition's tool name; names it does
// not map (MCP tools) stay as written.
func toolName(name string) string {
	if n, ok := claudeTools[strings.ToLower(name)]; ok {
		return n
	}
	return name
}

// validName reports whether s can name an agent: 1 to 64 ASCII letters,
// digits, '-', '_' and '.' ("code-reviewer", "db.migrator"), not "." or "..".
func validName(s string) bool {
	if s == "" || len(s) > 64 || s == "." || s == ".." {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
