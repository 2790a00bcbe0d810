package approval

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"mvdan.cc/sh/v3/syntax"
)

// Rule is a standing permission: calls of Tool that it covers run without
// asking. Which field applies depends on the tool's category: exec tools are
// covered by Command rules only, edit tools by Path rules only, and other
// tools (mcp) by a rule naming just the tool.
type Rule struct {
	// Tool is the name of the tool the rule is for.
	Tool string `json:"tool"`
	// Command is a command prefix in shell syntax, such as `git status` or
	// `npm run build`. It covers a simple command whose first words are
	// these words; a command line is covered when every simple command in
	// it is covered by some rule. Assignments in front (`FOO=1 make
	// test`) are the only ones, beyond harmless ones such as LANG, that
	// the covered command may have in force.
	Command string `json:"command,omitempty"`
	// Exact makes Command cover only a simple command with exactly its
	// words and no more.
	Exact bool `json:"exact,omitempty"`
	// Dir is the working directory Command holds in: relative to the
	// project (the gate's directory) unless absolute, empty for the project
	// itself. Commands run elsewhere (`cd x && make`, `env -C x make`) are
	// not covered, except by rules for programs that read nothing from
	// their directory (ls, cat, grep: allOptionsSafe).
	Dir string `json:"dir,omitempty"`
	// Path is a file or directory, relative to the project unless absolute,
	// with forward slashes. It covers itself and everything under it; "."
	// covers every file in the project, and nothing outside it.
	Path string `json:"path,omitempty"`
	// Host is the host (with its port, when one is written) a network
	// tool's rule covers, such as "docs.example.org"; empty covers a
	// network tool called without a URL (web_search).
	Host string `json:"host,omitempty"`
}

// String describes the rule for people, saying exactly what it allows, such
// as `bash: git status (plus safe options and operands)`, `bash: make lint
// (plus safe options)`, `bash: rm -rf build (exactly)` or `edit: any file in
// the project`. Front ends show it when a rule is made.
func (r Rule) String() string {
	in := ""
	if r.Command != "" && r.Dir != "" {
		in = " in " + r.Dir
	}
	switch {
	case r.Command != "" && r.Exact:
		return fmt.Sprintf("%s: %s (exactly)%s", r.Tool, r.Command, in)
	case r.Command != "":
		return fmt.Sprintf("%s: %s (%s)%s", r.Tool, r.Command, r.extrasText(), in)
	case r.Path == ".":
		return r.Tool + ": any file in the project"
	case r.Path != "":
		return fmt.Sprintf("%s: %s", r.Tool, r.Path)
	case r.Host != "":
		return fmt.Sprintf("%s: %s", r.Tool, r.Host)
	case (compiled{Rule: r}).coversServerTool(strings.TrimSuffix(r.Tool, "*") + "x"):
		server := strings.TrimSuffix(strings.TrimPrefix(r.Tool, mcpToolPrefix), "__*")
		return "every tool of the MCP server " + server + " (" + r.Tool + ")"
	}
	return r.Tool
}

// extrasText says which words a prefix rule lets a command add.
func (r Rule) extrasText() string {
	c, err := compile(r)
	if err != nil {
		return "invalid"
	}
	keys := programKeys(c.words)
	switch {
	case len(keys) > 0 && allOptionsSafe()[keys[0]]:
		return "plus any options and operands"
	case operandsAllowed(keys):
		return "plus safe options and operands"
	}
	return "plus safe options"
}

// errInvalidRule marks a rule that can never cover anything.
var errInvalidRule = errors.New("invalid rule")

// compiled is a rule ready to match: its command split into words, the
// assignments it grants and the directory it holds in.
type compiled struct {
	Rule
	words []string
	env   map[string]string
	dir   string
}

// compile checks r and splits its command into words, with quotes removed
// and wrappers looked through exactly as a command line's are.
func compile(r Rule) (compiled, error) {
	switch {
	case r.Tool == "":
		return compiled{}, fmt.Errorf("%w: no tool", errInvalidRule)
	case r.Command != "" && r.Path != "":
		return compiled{}, fmt.Errorf("%w %s: both command and path", errInvalidRule, r.Tool)
	case r.Command == "":
		r.Path = cleanPath(r.Path)
		return compiled{Rule: r}, nil
	}
	cmds, ok := parseCommands(r.Command)
	if !ok || len(cmds) != 1 || cmds[0].openEnded || cmds[0].dir != "." {
		return compiled{}, fmt.Errorf("%w %s: command %q is not one simple command", errInvalidRule, r.Tool, r.Command)
	}
	env, ok := grantedEnv(cmds[0].env)
	if !ok {
		return compiled{}, fmt.Errorf("%w %s: command %q assigns values that are not literals", errInvalidRule, r.Tool, r.Command)
	}
	c := compiled{Rule: r, env: env, dir: "."}
	if r.Dir != "" {
		c.dir = path.Clean(filepath.ToSlash(r.Dir))
	}
	for _, w := range cmds[0].args {
		if !w.fixed() {
			return compiled{}, fmt.Errorf("%w %s: command %q has expansions", errInvalidRule, r.Tool, r.Command)
		}
		c.words = append(c.words, w.text)
	}
	return c, nil
}

// matches reports whether the rule covers one simple command.
func (r compiled) matches(c command) bool {
	if r.words == nil || len(c.args) < len(r.words) || !r.holdsIn(c) {
		return false
	}
	if env, ok := grantedEnv(c.env); !ok || !maps.Equal(env, r.env) {
		// A rule covers exactly the assignments it was granted with.
		return false
	}
	if r.Exact && (len(c.args) != len(r.words) || c.openEnded) {
		return false
	}
	for i, w := range r.words {
		if a := c.args[i]; !a.fixed() || a.text != w {
			return false
		}
	}
	if r.Exact {
		return true
	}
	// A prefix rule vouches for its words, not for what follows them: the
	// extra words must be harmless for the program (see extrasSafe), and
	// words appended at run time (xargs) cannot be checked at all.
	return !c.openEnded && extrasSafe(r.words, c.args[len(r.words):])
}

// holdsIn reports whether the rule holds where c runs: in the rule's
// directory, or anywhere for programs that read nothing from it.
func (r compiled) holdsIn(c command) bool {
	return dirFree(r.words) || c.dir != dirUnknown && c.dir == r.dir
}

// dirFree reports whether the program of a rule's words does the same in
// every directory: it reads no configuration or code from it.
func dirFree(words []string) bool {
	keys := programKeys(words)
	return len(keys) > 0 && allOptionsSafe()[keys[0]]
}

// coversPath reports whether a path rule covers p, a path cleaned by
// cleanPath.
func (r compiled) coversPath(p string) bool {
	switch {
	case r.Command != "" || r.Path == "" || p == "":
		return false
	case r.Path == ".":
		return !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "~")
	case p == r.Path:
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(r.Path, "/")+"/")
}

// ruleSet is a list of compiled rules.
type ruleSet []compiled

// covers reports whether the rules cover a call of tool on subject.
func (s ruleSet) covers(tool string, cat core.ApprovalCategory, subject string) bool {
	switch subjectKind(cat) {
	case subjectCommand:
		return s.coversCommand(tool, subject)
	case subjectPath:
		for _, r := range s {
			if r.Tool == tool && r.coversPath(subject) {
				return true
			}
		}
		return false
	case subjectHost:
		for _, r := range s {
			if r.coversHost(tool, subject) {
				return true
			}
		}
		return false
	}
	for _, r := range s {
		if r.Command == "" && r.Path == "" && r.Host == "" && (sameTool(r.Tool, tool) || r.coversServerTool(tool)) {
			return true
		}
	}
	return false
}

// mcpToolPrefix starts the name of every MCP tool: mcp__<server>__<tool>.
const mcpToolPrefix = "mcp__"

// MCPServerRule is the rule that allows every tool of the MCP server that
// tool (mcp__<server>__<tool>) belongs to: tool "mcp__<server>__*". ok is
// false for a name that is not an MCP tool's, and for one where it is not
// clear which server it belongs to (a "__" in the server's or the tool's
// name), so that the rule never covers another server's tools.
func MCPServerRule(tool string) (r Rule, ok bool) {
	rest, found := strings.CutPrefix(tool, mcpToolPrefix)
	server, name, cut := strings.Cut(rest, "__")
	if !found || !cut || server == "" || name == "" || strings.Contains(name, "__") || strings.ContainsAny(tool, "*") {
		return Rule{}, false
	}
	return Rule{Tool: mcpToolPrefix + server + "__*"}, true
}

// coversServerTool reports whether the rule is an MCP server's rule
// (mcp__<server>__*) and tool one of that server's tools whose name holds
// no "__" (which could make it another server's).
func (r compiled) coversServerTool(tool string) bool {
	prefix, wild := strings.CutSuffix(r.Tool, "*")
	server, ok := strings.CutPrefix(prefix, mcpToolPrefix)
	if !wild || !ok {
		return false
	}
	server, ok = strings.CutSuffix(server, "__")
	if !ok || server == "" || strings.Contains(server, "__") || strings.Contains(server, "*") {
		return false
	}
	name, ok := strings.CutPrefix(tool, prefix)
	if !ok && !strings.Contains(prefix, "-") && strings.HasPrefix(tool, mcpToolPrefix) {
		// A rule saved before MCP names kept hyphens.
		server, rest, cut := strings.Cut(strings.TrimPrefix(tool, mcpToolPrefix), "__")
		if cut && strings.Contains(server, "-") && mcpToolPrefix+strings.ReplaceAll(server, "-", "_")+"__" == prefix {
			name, ok = rest, true
		}
	}
	return ok && name != "" && !strings.Contains(name, "__") && !strings.Contains(name, "*")
}

// sameTool reports whether a rule for ruleTool is for tool: the same name,
// or for an MCP tool, the name cairn gave it before MCP names kept hyphens
// (mcp__sequential_thinking__x for mcp__sequential-thinking__x), so rules
// saved then still hold. Only a rule without hyphens is read so: it could
// name no hyphenated tool otherwise.
func sameTool(ruleTool, tool string) bool {
	if ruleTool == tool {
		return true
	}
	return strings.HasPrefix(tool, mcpToolPrefix) && strings.Contains(tool, "-") &&
		!strings.Contains(ruleTool, "-") && strings.ReplaceAll(tool, "-", "_") == ruleTool
}

// coversCommand reports whether every simple command in line is covered by
// a command rule of tool. A line that cannot be parsed, or uses anything
// parseCommands refuses, is never covered; nor is a line that runs no
// program at all (`X=1`), which no rule names.
func (s ruleSet) coversCommand(tool, line string) bool {
	cmds, ok := parseCommands(line)
	if !ok || len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		if !s.coversOne(tool, c) {
			return false
		}
	}
	return true
}

func (s ruleSet) coversOne(tool string, c command) bool {
	for _, r := range s {
		if len(r.words) > 0 && len(c.args) > 0 && c.args[0].text != r.words[0] {
			// Cheap first: matches needs every word of the rule.
			continue
		}
		if r.Tool == tool && r.matches(c) {
			return true
		}
	}
	return false
}

// commandRules returns the rules that cover line: one per distinct simple
// command, each as long as commandPattern says. It returns nil when some
// command in line cannot get a rule, so that offering to remember the
// choice would not help.
func commandRules(tool, line string) []Rule {
	cmds, ok := parseCommands(line)
	if !ok || len(cmds) == 0 {
		return nil
	}
	var rules []Rule
	seen := map[Rule]bool{}
	for _, c := range cmds {
		words, exact, ok := commandPattern(c)
		if !ok {
			return nil
		}
		env, ok := grantedEnv(c.env)
		if !ok {
			return nil
		}
		dir := c.dir
		switch {
		case dirFree(words) || dir == ".":
			dir = ""
		case dir == dirUnknown:
			return nil
		}
		text, err := ruleText(env, words)
		if err != nil {
			return nil
		}
		r := Rule{Tool: tool, Command: text, Exact: exact, Dir: dir}
		if !exact && !prefixCovers(r, c) {
			// The command adds words the prefix does not vouch for
			// (`git diff --output=f`): remember the command exactly.
			if c.openEnded {
				return nil
			}
			if text, err = ruleText(env, fixedTexts(c.args)); err != nil {
				return nil
			}
			r = Rule{Tool: tool, Command: text, Exact: true, Dir: dir}
		}
		if !seen[r] {
			seen[r] = true
			rules = append(rules, r)
		}
	}
	// The rules are built to cover line; check it rather than trust it.
	set, err := compileAll(rules)
	if err != nil || !set.coversCommand(tool, line) {
		return nil
	}
	return rules
}

// ruleText writes a rule's command: the assignments it grants, in order
// of name, then its words.
func ruleText(env map[string]string, words []string) (string, error) {
	text, err := joinWords(words)
	if err != nil || len(env) == 0 {
		return text, err
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(env)) {
		a, err := assign{name, word{text: env[name], plain: true}}.text()
		if err != nil {
			return "", err
		}
		parts = append(parts, a)
	}
	return strings.Join(append(parts, text), " "), nil
}

// prefixCovers reports whether the prefix rule r covers c.
func prefixCovers(r Rule, c command) bool {
	compiled, err := compile(r)
	return err == nil && compiled.matches(c)
}

// fixedTexts returns the texts of words.
func fixedTexts(words []word) []string {
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.text
	}
	return texts
}

// joinWords writes words as a shell command, quoting where needed.
func joinWords(words []string) (string, error) {
	quoted := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return "", err
		}
		quoted[i] = q
	}
	return strings.Join(quoted, " "), nil
}

// compileAll compiles rules, keeping the valid ones and joining the errors
// of the others.
func compileAll(rules []Rule) (ruleSet, error) {
	set := make(ruleSet, 0, len(rules))
	var errs []error
	for _, r := range rules {
		c, err := compile(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set = append(set, c)
	}
	return set, errors.Join(errs...)
}

// cleanPath puts a path into the form rules use: slashes, cleaned, "" for
// none.
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(filepath.ToSlash(p))
}
