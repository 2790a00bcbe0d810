package hook

import (
	"fmt"
	"regexp"
	"strings"
)

// Matcher selects what a group's hooks run for: for tool events the tool's
// name, for SessionStart the source, for PreCompact the trigger, for
// Notification its type, for SessionEnd the reason. Its text is read as
// Claude Code reads it: "", "*" or none matches everything; text of only
// letters, digits, '_', '-' and '|' names exact values ("Edit|Write");
// anything else is a regular expression matched anywhere in the value
// ("mcp__github__.*", "^Notebook"), case-sensitively.
type Matcher struct {
	text  string
	all   bool
	exact []string
	re    *regexp.Regexp
}

// maxMatcherLen bounds a matcher's text.
const maxMatcherLen = 4096

// ParseMatcher reads a matcher's text. A regular expression Go's regexp
// cannot read (JavaScript's lookarounds and backreferences) is an error.
func ParseMatcher(text string) (Matcher, error) {
	m := Matcher{text: text}
	switch {
	case len(text) > maxMatcherLen:
		return m, fmt.Errorf("matcher is longer than %d bytes", maxMatcherLen)
	case text == "" || text == "*":
		m.all = true
	case plainMatcher(text):
		m.exact = strings.Split(text, "|")
	default:
		re, err := regexp.Compile(text)
		if err != nil {
			return m, fmt.Errorf("matcher %q is not a regular expression cairn can read: %v", text, err)
		}
		m.re = re
	}
	return m, nil
}

func plainMatcher(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '|') {
			return false
		}
	}
	return true
}

// String is the matcher's text.
func (m Matcher) String() string { return m.text }

// Match reports whether the matcher selects any of names (a cairn tool
// matches by its own name and by its Claude Code names).
func (m Matcher) Match(names ...string) bool {
	if m.all {
		return true
	}
	for _, n := range names {
		if m.re != nil && m.re.MatchString(n) {
			return true
		}
		for _, e := range m.exact {
			if e == n {
				return true
			}
		}
	}
	return false
}
