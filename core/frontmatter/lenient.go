package frontmatter

import (
	"regexp"
	"strings"
	"sync"
)

// Claude Code reads a front matter YAML refuses a second time, with
// top-level values that hold YAML's special characters quoted: skills
// written as "description: Use when: the user asks" load there. cairn
// does the same, with the same rule (its 2.1 reader, read for facts).

// quotableLine is a top-level "key: value" line, as Claude Code matches it.
var quotableLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-zA-Z_-]+):\s+(\S.*)$`) })

// special are the characters (or ": ") that make Claude Code quote a value.
var special = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[{}\\[\\]*&#!|>%@`]|: ") })

// quoteSpecialValues returns block with each top-level value that holds a
// special character wrapped in double quotes, unless it is quoted already
// or is a flow list YAML can read.
func quoteSpecialValues(block string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		m := quotableLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		key, val := m[1], m[2]
		if len(val) >= 2 && (val[0] == '"' && val[len(val)-1] == '"' || val[0] == '\'' && val[len(val)-1] == '\'') {
			continue
		}
		if strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]") {
			if v, err := parseYAML("k: " + val); err == nil && len(v) == 1 && v[0].Value.Kind == List {
				continue
			}
		}
		if !special().MatchString(val) {
			continue
		}
		val = strings.ReplaceAll(val, `\`, `\\`)
		val = strings.ReplaceAll(val, `"`, `\"`)
		lines[i] = key + `: "` + val + `"`
	}
	return strings.Join(lines, "\n")
}
