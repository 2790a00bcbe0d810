package ccperm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Permissions are the permission rules of Claude Code settings files in
// cairn's terms.
type Permissions struct {
	// Deny rules refuse the calls they match, in every approval mode.
	Deny []Rule
	// Ask rules ask about the calls they match, in every approval mode.
	Ask []Rule
	// Allow are the allow rules as cairn approval rules, each no wider
	// than Claude Code's meaning; they hold for the session.
	Allow []approval.Rule
	// Origin names, for each Deny and Ask rule's text, the file it came
	// from.
	Origin map[string]string
}

// Empty reports whether p holds no rule.
func (p Permissions) Empty() bool { return len(p.Deny)+len(p.Ask)+len(p.Allow) == 0 }

// maxSettingsBytes bounds a settings file read for permissions.
const maxSettingsBytes = 4 << 20

// LoadFiles reads the permissions of the settings files at paths; a
// missing file holds none. What cannot be read or translated is returned
// as warnings for the person, naming the file and the rule. home expands
// `~/` in path rules.
func LoadFiles(home string, paths ...string) (Permissions, []string) {
	var out Permissions
	var warnings []string
	for _, p := range paths {
		data, err := regfile.Read(p, maxSettingsBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v; its permission rules are not read", p, err))
			continue
		}
		perms, ws, err := ParseSettings(p, data, home)
		warnings = append(warnings, ws...)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		out.merge(perms)
	}
	return out, warnings
}

func (p *Permissions) merge(o Permissions) {
	p.Deny = append(p.Deny, o.Deny...)
	p.Ask = append(p.Ask, o.Ask...)
	p.Allow = append(p.Allow, o.Allow...)
	if p.Origin == nil {
		p.Origin = map[string]string{}
	}
	for k, v := range o.Origin {
		p.Origin[k] = v
	}
}

// settingsPermissions is the "permissions" block of Claude Code settings.
type settingsPermissions struct {
	Allow                        []string `json:"allow"`
	Deny                         []string `json:"deny"`
	Ask                          []string `json:"ask"`
	DefaultMode                  string   `json:"defaultMode"`
	AdditionalDirectories        []string `json:"additionalDirectories"`
	DisableBypassPermissionsMode string   `json:"disableBypassPermissionsMode"`
}

// ParseSettings reads the "permissions" block of the settings file data
// (at path, for messages). A deny or ask rule cairn cannot read in full
// covers its whole tool (tighter, never looser); an allow rule cairn
// cannot translate exactly is left out; both are reported.
func ParseSettings(path string, data []byte, home string) (Permissions, []string, error) {
	var file struct {
		Permissions *settingsPermissions `json:"permissions"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return Permissions{}, nil, fmt.Errorf("%s: %w; its permission rules are not read", path, err)
	}
	out := Permissions{Origin: map[string]string{}}
	sp := file.Permissions
	if sp == nil {
		return out, nil, nil
	}
	var warnings []string
	warn := func(format string, args ...any) {
		warnings = append(warnings, path+": permissions."+fmt.Sprintf(format, args...))
	}
	if sp.DefaultMode != "" {
		warn("defaultMode %q is not read: cairn's approval mode is its own setting (defaultMode in ~/.cairn/settings.json, or --approval)", sp.DefaultMode)
	}
	if len(sp.AdditionalDirectories) > 0 {
		warn("additionalDirectories is not read: list them in cairn's approval.allowWrite setting")
	}
	for _, list := range []struct {
		name  string
		texts []string
		into  *[]Rule
	}{{"deny", sp.Deny, &out.Deny}, {"ask", sp.Ask, &out.Ask}} {
		for _, text := range list.texts {
			r, err := Parse(text)
			if err != nil {
				wide, werr := Parse(toolPart(text))
				if werr != nil {
					warn("%s %q: %v; it is not applied", list.name, text, err)
					continue
				}
				warn("%s %q: %v; cairn applies it to every %s call instead", list.name, text, err, wide.tool)
				r = wide
			}
			*list.into = append(*list.into, r)
			out.Origin[r.text] = path
		}
	}
	for _, text := range sp.Allow {
		rules, why := AllowRules(text, home)
		if why != "" {
			warn("allow %q is not applied: %s", text, why)
			continue
		}
		out.Allow = append(out.Allow, rules...)
	}
	return out, warnings, nil
}

// toolPart is the tool name of a rule's text: what stands before "(".
func toolPart(text string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(text), "(")
	return name
}

// AllowRules translates a Claude Code allow rule into cairn approval rules
// that allow no more than it does, or says why it cannot: `Bash(npm
// test:*)` and `Bash(npm test *)` become a command rule for `npm test`
// (which cairn narrows further to safe options), `Bash(npm test)` an exact
// one; `Edit(./src/**)` path rules for edit and write, `Read(./docs/**)`
// one for read; `mcp__server__tool` and `mcp__server` (or
// `mcp__server__*`) tool rules.
func AllowRules(text, home string) ([]approval.Rule, string) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "mcp__") {
		server, tool, _ := strings.Cut(strings.TrimPrefix(text, "mcp__"), "__")
		switch {
		case server == "" || strings.ContainsAny(text, "()"):
			return nil, "not an MCP tool name"
		case tool == "" || tool == "*":
			return []approval.Rule{{Tool: "mcp__" + server + "__*"}}, ""
		case strings.Contains(tool, "*"):
			return nil, "cairn's MCP rules name one tool or a whole server"
		}
		return []approval.Rule{{Tool: text}}, ""
	}
	r, err := Parse(text)
	if err != nil {
		return nil, err.Error()
	}
	switch {
	case r.tool == "Bash":
		return bashAllow(r)
	case r.tool == "Edit" || r.tool == "Write" || r.tool == "MultiEdit":
		p, why := pathAllow(r.spec, home)
		if why != "" {
			return nil, why
		}
		return []approval.Rule{{Tool: "edit", Path: p}, {Tool: "write", Path: p}}, ""
	case r.tool == "Read":
		p, why := pathAllow(r.spec, home)
		if why != "" {
			return nil, why
		}
		return []approval.Rule{{Tool: "read", Path: p}}, ""
	}
	return nil, fmt.Sprintf("cairn has no rule for %s; it asks for it as usual", r.tool)
}

// bashAllow translates a Bash allow rule.
func bashAllow(r Rule) ([]approval.Rule, string) {
	switch {
	case r.spec == "":
		return nil, "it allows every command, and cairn's rules name commands; use --approval yolo for that"
	case r.prefix != "":
		return []approval.Rule{{Tool: "bash", Command: r.prefix}}, ""
	}
	words, wild := strings.CutSuffix(r.spec, " *")
	if strings.ContainsAny(words, "*") {
		return nil, "cairn's command rules take a prefix (`npm test:*`) or an exact command, not a wildcard inside it"
	}
	words = strings.TrimSpace(words)
	if words == "" {
		return nil, "it allows every command, and cairn's rules name commands; use --approval yolo for that"
	}
	return []approval.Rule{{Tool: "bash", Command: words, Exact: !wild}}, ""
}

// pathAllow turns a file rule's pattern into a cairn path rule, which
// covers a file or a directory and everything under it: `./src/**`,
// `src/**`, `/src/**` (the project's), `~/notes/**`, `//abs/**` and a
// plain file name relative to the project; other globs cannot be said.
func pathAllow(spec, home string) (string, string) {
	if spec == "" {
		return "", "it allows every file, and cairn's rules name files or directories; use --approval auto_edit for the project's"
	}
	p := strings.TrimSuffix(strings.TrimSuffix(spec, "/**"), "/")
	if p == "**" || p == "." || p == "./**" || p == "/**" {
		return ".", ""
	}
	if strings.ContainsAny(p, "*?[") {
		return "", "cairn's path rules name a file or a directory, not a glob such as " + spec
	}
	switch {
	case strings.HasPrefix(p, "//"):
		return filepath.Clean(p[1:]), ""
	case strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", "the home directory is not known"
		}
		return filepath.Join(home, p[2:]), ""
	case strings.HasPrefix(p, "/"):
		p = p[1:]
	}
	p = filepath.ToSlash(filepath.Clean(p))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", "it names files outside the project relative to it"
	}
	return p, ""
}
