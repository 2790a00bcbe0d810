package tools

import (
	"errors"
	"regexp"
	"strings"
)

// glob is a compiled shell-style pattern over slash-separated paths: '*'
// and '?' stay within one path segment, '**' as a whole segment spans any
// number of them, '[...]' is a character class ('!' or '^' negates it), '\'
// quotes the next character and, when enabled, '{a,b}' is an alternation.
// Plain names and '*.ext' patterns, the common cases, skip the regexp.
type glob struct {
	fold    bool
	literal string // the whole pattern, when it has no special characters
	suffix  string // what follows a leading '*', when nothing else is special
	kind    int
	re      *regexp.Regexp
}

const (
	globRegexp = iota
	globLiteral
	globSuffix
)

// globOptions choose the dialect of a pattern.
type globOptions struct {
	braces bool // '{a,b}' alternation (fd and ripgrep globs; not .gitignore)
	fold   bool // match case-insensitively
}

// compileGlob compiles pattern for whole-string matching.
func compileGlob(pattern string, opt globOptions) (*glob, error) {
	g := &glob{fold: opt.fold}
	if opt.fold {
		pattern = strings.ToLower(pattern)
	}
	special := "*?[\\"
	if opt.braces {
		special += "{"
	}
	switch {
	case !strings.ContainsAny(pattern, special):
		g.kind, g.literal = globLiteral, pattern
		return g, nil
	case pattern[0] == '*' && len(pattern) > 1 && pattern[1] != '*' && !strings.ContainsAny(pattern[1:], special+"/"):
		g.kind, g.suffix = globSuffix, pattern[1:]
		return g, nil
	}
	expr, err := globToRegexp(pattern, opt.braces)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	g.re = re
	return g, nil
}

// match reports whether the whole of s matches.
func (g *glob) match(s string) bool {
	if g.fold {
		s = strings.ToLower(s)
	}
	switch g.kind {
	case globLiteral:
		return s == g.literal
	case globSuffix:
		return strings.HasSuffix(s, g.suffix) && !strings.Contains(s[:len(s)-len(g.suffix)], "/")
	}
	return g.re.MatchString(s)
}

var errBadGlob = errors.New("unbalanced braces")

// globToRegexp translates a glob into an anchored regular expression.
func globToRegexp(p string, braces bool) (string, error) {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			startSeg := i == 0 || p[i-1] == '/'
			endSeg := j == len(p) || p[j] == '/'
			switch {
			case startSeg && j == len(p):
				b.WriteString(`.*`)
			case startSeg && endSeg:
				b.WriteString(`(?:.*/)?`)
				j++ // the slash is part of the optional group
			default:
				b.WriteString(`[^/]*`)
			}
			i = j - 1
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case c == '[':
			class, n := globClass(p[i:])
			if n == 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(class)
			i += n - 1
		case braces && c == '{':
			depth++
			b.WriteString(`(?:`)
		case braces && c == ',' && depth > 0:
			b.WriteString(`|`)
		case braces && c == '}' && depth > 0:
			depth--
			b.WriteString(`)`)
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	if depth != 0 {
		return "", errBadGlob
	}
	b.WriteString(`)$`)
	return b.String(), nil
}

// globClass translates the character class at the start of p, returning
// the regexp class and the bytes of p it used, or 0 when p has no closing
// bracket. A class never matches '/'.
func globClass(p string) (string, int) {
	i := 1
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	start := i
	if i < len(p) && p[i] == ']' {
		i++
	}
	for i < len(p) && p[i] != ']' {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		i++
	}
	if i >= len(p) {
		return "", 0
	}
	var b strings.Builder
	b.WriteByte('[')
	if neg {
		b.WriteString(`^/`)
	}
	for j := start; j < i; j++ {
		c := p[j]
		switch {
		case c == '\\' && j+1 < i:
			j++
			b.WriteString(regexp.QuoteMeta(p[j : j+1]))
		case c == '-' && j > start && j+1 < i:
			b.WriteByte('-')
		case c == '[' || c == ']' || c == '^' || c == '\\' || c == '-':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	return b.String(), i + 1
}
