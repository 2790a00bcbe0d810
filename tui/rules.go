package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// ruleCache keeps the horizontal rules drawn around the editor, which
// are the same from frame to frame but cost a styled render of a whole
// screen's width each (lipgloss measures every cell): a streamed frame
// redraws the editor's frame without drawing its rules again.
type ruleCache struct {
	st    *styles // the styles the rules were drawn with
	rules map[ruleKey]string
}

// ruleKey names a rule: its kind (which style, and whether it carries
// the shell label) and its width.
type ruleKey struct {
	kind  string
	width int
}

// rule is a line of w "─" in style, with label ahead of it when there
// is one; kind names the style, for the cache.
func (c *ruleCache) rule(st *styles, kind string, style lipgloss.Style, label string, w int) string {
	if c.st != st || len(c.rules) > 16 {
		c.st, c.rules = st, map[ruleKey]string{}
	}
	key := ruleKey{kind: kind + "\x00" + label, width: w}
	if r, ok := c.rules[key]; ok {
		return r
	}
	r := style.Render(strings.Repeat("─", max(w, 1)))
	if label != "" {
		r = style.Render(label) + style.Render(strings.Repeat("─", max(w-len([]rune(label)), 1)))
	}
	c.rules[key] = r
	return r
}
