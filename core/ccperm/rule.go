package ccperm

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Rule is one rule in Claude Code's permission rule syntax
// (`Bash(git commit:*)`, `Edit(*.ts)`, `WebFetch(domain:example.com)`,
// `mcp__github__create_issue`), as a hook's "if" and the permissions of
// Claude Code's settings write it.
type Rule struct {
	text string
	tool string
	// spec is the part in parentheses; "" for a rule naming the tool only.
	spec string
	// cmd matches a Bash command; path a file path; domain a URL's host.
	cmd    *regexp.Regexp
	prefix string
	path   *regexp.Regexp
	domain string
}

// maxRuleLen bounds a rule's text.
const maxRuleLen = 4096

var ruleSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_-]+)(?:\((.*)\))?$`) })

// fileTools are the tools whose rules name files, by the argument holding
// the path.
var fileTools = map[string]bool{"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Glob": true, "Grep": true, "LS": true}

// family are the tools a rule for a tool covers besides itself, as in
// Claude Code: Read rules hold for every tool that reads files, Edit rules
// for every tool that changes them.
var family = map[string]map[string]bool{
	"Read": {"Grep": true, "Glob": true, "LS": true},
	"Edit": {"Write": true, "MultiEdit": true, "NotebookEdit": true},
}

// Parse reads a rule. A rule it cannot read is an error naming it.
func Parse(text string) (Rule, error) {
	c := Rule{text: text}
	if len(text) > maxRuleLen {
		return c, fmt.Errorf("rule is longer than %d bytes", maxRuleLen)
	}
	if !utf8.ValidString(text) {
		return c, fmt.Errorf("rule is not UTF-8 text")
	}
	m := ruleSyntax().FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return c, fmt.Errorf("rule %q is not a permission rule (Tool or Tool(pattern))", text)
	}
	c.tool, c.spec = m[1], m[2]
	if c.spec == "" || c.spec == "*" {
		c.spec = ""
		return c, nil
	}
	switch {
	case c.tool == "Bash":
		if p, ok := strings.CutSuffix(c.spec, ":*"); ok {
			c.prefix = strings.TrimSpace(p)
			if c.prefix == "" {
				return c, fmt.Errorf("rule %q: empty command prefix", text)
			}
			return c, nil
		}
		re, err := regexp.Compile("^" + globRegexp(c.spec, false) + "$")
		if err != nil {
			return c, fmt.Errorf("rule %q: %v", text, err)
		}
		c.cmd = re
	case fileTools[c.tool]:
		re, err := regexp.Compile(pathRegexp(c.spec))
		if err != nil {
			return c, fmt.Errorf("rule %q: %v", text, err)
		}
		c.path = re
	case c.tool == "WebFetch":
		d, ok := strings.CutPrefix(c.spec, "domain:")
		if !ok || d == "" {
			return c, fmt.Errorf("rule %q: WebFetch rules name a domain (WebFetch(domain:example.com))", text)
		}
		c.domain = strings.ToLower(d)
	default:
		return c, fmt.Errorf("rule %q: cairn reads patterns only for Bash, file tools and WebFetch", text)
	}
	return c, nil
}

// String is the rule's text.
func (c Rule) String() string { return c.text }

// Tool is the tool the rule names (Bash, Edit, mcp__server__tool...).
func (c Rule) Tool() string { return c.tool }

// Specifier is the part in parentheses ("" for a rule naming the tool
// alone, or with "*").
func (c Rule) Specifier() string { return c.spec }

// Match reports whether a call of a tool known by names, with input in
// Claude Code's field names (paths absolute), fits the rule; home is the
// person's home directory for `~/` patterns, dir the project for `/x`
// patterns.
func (c Rule) Match(names []string, input json.RawMessage, dir, home string) bool {
	named := false
	for _, n := range names {
		if n == c.tool || family[c.tool][n] {
			named = true
		}
	}
	if !named {
		return false
	}
	if c.spec == "" {
		return true
	}
	var in map[string]any
	_ = json.Unmarshal(input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch {
	case c.prefix != "" || c.cmd != nil:
		for _, part := range simpleCommands(str("command")) {
			if c.prefix != "" && (part == c.prefix || strings.HasPrefix(part, c.prefix+" ")) {
				return true
			}
			if c.cmd != nil && c.cmd.MatchString(part) {
				return true
			}
		}
	case c.path != nil:
		p := str("file_path")
		if p == "" {
			p = str("path")
		}
		if p == "" {
			p = str("notebook_path")
		}
		return p != "" && c.path.MatchString(relativeForRule(p, dir, home, c.spec))
	case c.domain != "":
		u, err := url.Parse(str("url"))
		if err != nil {
			return false
		}
		host := strings.ToLower(u.Hostname())
		return host == c.domain || strings.HasSuffix(host, "."+c.domain)
	}
	return false
}

// simpleCommands splits a command line at the operators that join simple
// commands (&&, ||, ;, |, newlines), so `cd x && git commit` fits
// `Bash(git commit:*)`. Quoting is not read: a split inside quotes can
// only make a hook run more often, never less.
func simpleCommands(line string) []string {
	f := func(r rune) bool { return r == ';' || r == '|' || r == '&' || r == '\n' }
	var out []string
	for _, p := range strings.FieldsFunc(line, f) {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// globRegexp turns a glob into a regular expression: * is any run of
// characters (of a path segment only when inPath, where ** crosses
// segments), everything else literal.
func globRegexp(glob string, inPath bool) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch {
		case inPath && strings.HasPrefix(glob[i:], "**/"):
			b.WriteString(`(?:.*/)?`)
			i += 2
		case inPath && strings.HasPrefix(glob[i:], "**"):
			b.WriteString(`.*`)
			i++
		case glob[i] == '*' && inPath:
			b.WriteString(`[^/]*`)
		case glob[i] == '*':
			b.WriteString(`.*`)
		case glob[i] == '?' && inPath:
			b.WriteString(`[^/]`)
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	return b.String()
}

// pathRegexp reads a file rule's pattern as Claude Code does (gitignore
// style): `//abs` is absolute, `~/x` under the home directory, `/x` and
// `./x` relative to the project, and a pattern without a slash matches the
// file's name in any directory.
func pathRegexp(spec string) string {
	switch {
	case strings.HasPrefix(spec, "//"):
		spec = spec[1:]
	case strings.HasPrefix(spec, "~/"), strings.HasPrefix(spec, "/"):
	case strings.HasPrefix(spec, "./"):
		spec = spec[1:]
	case !strings.Contains(strings.TrimSuffix(spec, "/"), "/"):
		return `^(?:.*/)?` + globRegexp(spec, true) + `(?:/.*)?$`
	default:
		spec = "/" + spec
	}
	return "^" + globRegexp(spec, true) + `(?:/.*)?$`
}

// relativeForRule puts an absolute path p in the form the rule's pattern
// is written in: under ~/ for a home pattern, from the project's root
// (with a leading /) for a project pattern, absolute for the rest.
func relativeForRule(p, dir, home, spec string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	switch {
	case strings.HasPrefix(spec, "//"):
		return p
	case strings.HasPrefix(spec, "~/"):
		if home != "" {
			if rel, ok := strings.CutPrefix(p, filepath.ToSlash(home)+"/"); ok {
				return "~/" + rel
			}
		}
		return p
	}
	if dir != "" {
		if rel, ok := strings.CutPrefix(p, filepath.ToSlash(dir)+"/"); ok {
			return "/" + path.Clean(rel)
		}
	}
	return p
}
