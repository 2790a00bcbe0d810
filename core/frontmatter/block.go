package frontmatter

import (
	"strings"
)

// parseBlock reads the lines between the "---" lines; first is the file's
// line number of lines[0].
func parseBlock(lines []string, first int) ([]Field, error) {
	var fields []Field
	seen := map[string]int{}
	for i := 0; i < len(lines); {
		ln, l := first+i, lines[i]
		if blank(l) {
			i++
			continue
		}
		if indent(l) > 0 || strings.HasPrefix(l, "\t") {
			return nil, errorf(ln, "indented line belongs to no key (keys start at the beginning of a line)")
		}
		key, val, err := cutKey(l, ln)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[key]; ok {
			return nil, errorf(ln, "key %q is already set on line %d", key, prev)
		}
		seen[key] = ln
		i++
		// The key's value goes on over the lines indented under it, and
		// over "- item" lines at the key's own indentation (YAML's compact
		// list) when the key has nothing after it.
		j := i
		for j < len(lines) && (blank(lines[j]) || indent(lines[j]) > 0 || strings.HasPrefix(lines[j], "\t") ||
			strings.TrimSpace(val) == "" && isItem(lines[j])) {
			j++
		}
		v, err := parseValue(val, lines[i:j], ln, first+i)
		if err != nil {
			return nil, err
		}
		fields = append(fields, Field{Key: key, Line: ln, Value: v})
		i = j
	}
	return fields, nil
}

// blank reports whether l is empty, spaces, or a comment.
func blank(l string) bool {
	t := strings.TrimLeft(l, " \t")
	return t == "" || t[0] == '#'
}

// indent counts l's leading spaces.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// isItem reports whether l, once unindented, is a block list item.
func isItem(l string) bool {
	t := strings.TrimLeft(l, " ")
	return t == "-" || strings.HasPrefix(t, "- ")
}

// cutKey splits "key: value" at its colon.
func cutKey(l string, ln int) (key, val string, err error) {
	i := strings.Index(l, ":")
	for i >= 0 && i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' {
		j := strings.Index(l[i+1:], ":")
		if j < 0 {
			i = -1
			break
		}
		i += 1 + j
	}
	if i < 0 {
		return "", "", errorf(ln, `expected "key: value", found %q`, clip(l))
	}
	key = strings.TrimRight(l[:i], " ")
	if key == "" {
		return "", "", errorf(ln, "a key is missing before the colon")
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return "", "", errorf(ln, "key %q: keys use only letters, digits, '-', '_' and '.'", clip(key))
		}
	}
	return key, l[i+1:], nil
}

// parseValue reads a key's value: val is what follows the colon, sub the
// lines under the key, the first of which is line subLine.
func parseValue(val string, sub []string, keyLine, subLine int) (Value, error) {
	val = strings.TrimSpace(val)
	if val == "" || val[0] == '#' {
		return parseNested(sub, keyLine, subLine)
	}
	switch val[0] {
	case '|', '>':
		return parseBlockScalar(val, sub, keyLine, subLine)
	case '[':
		if err := onlyBlank(sub, subLine, "write a flow list on one line, or as \"- item\" lines"); err != nil {
			return Value{}, err
		}
		items, err := parseFlow(val, keyLine)
		return Value{Kind: List, Items: items}, err
	case '{':
		return Value{}, errorf(keyLine, `flow maps ("{a: b}") are not supported: write the keys on lines of their own, indented`)
	case '&', '*', '!', '%', '@', '`':
		return Value{}, errorf(keyLine, "anchors, aliases, tags and values starting with %q are not supported: quote the value", val[0])
	case '"', '\'':
		if err := onlyBlank(sub, subLine, "close the quote on the key's line"); err != nil {
			return Value{}, err
		}
		s, rest, err := quoted(val, keyLine)
		if err != nil {
			return Value{}, err
		}
		if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
			return Value{}, errorf(keyLine, "unexpected %q after the closing quote", clip(rest))
		}
		return Value{Kind: Scalar, Str: s, Quoted: true}, nil
	}
	// A plain scalar, perhaps continued on the lines under it.
	parts := []string{plain(val)}
	for k, l := range sub {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(l, "\t") {
			return Value{}, errorf(subLine+k, "tabs cannot indent a value: use spaces")
		}
		if t == "" {
			parts = append(parts, "\n")
			continue
		}
		parts = append(parts, plain(t))
	}
	return Value{Kind: Scalar, Str: fold(parts)}, nil
}

// fold joins a plain scalar's lines: a line break becomes a space, and an
// empty line a line break.
func fold(parts []string) string {
	for len(parts) > 0 && parts[len(parts)-1] == "\n" {
		parts = parts[:len(parts)-1]
	}
	var b strings.Builder
	for i, p := range parts {
		if p != "\n" && i > 0 && parts[i-1] != "\n" {
			b.WriteByte(' ')
		}
		b.WriteString(p)
	}
	return b.String()
}

// plain removes a trailing " # comment" from an unquoted value.
func plain(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "\t#"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// onlyBlank refuses lines under a value that has no room for them.
func onlyBlank(sub []string, subLine int, hint string) error {
	for k, l := range sub {
		if !blank(l) {
			return errorf(subLine+k, "unexpected indented line: %s", hint)
		}
	}
	return nil
}

// parseNested reads what is under a key with nothing after its colon:
// nothing (Null), "- item" lines (List) or "key: value" lines (Map).
func parseNested(sub []string, keyLine, subLine int) (Value, error) {
	start := -1
	for k, l := range sub {
		if strings.HasPrefix(l, "\t") && !blank(l) {
			return Value{}, errorf(subLine+k, "tabs cannot indent a value: use spaces")
		}
		if !blank(l) && start < 0 {
			start = k
		}
	}
	if start < 0 {
		return Value{Kind: Null}, nil
	}
	ind := indent(sub[start])
	if isItem(sub[start]) {
		var items []string
		for k := start; k < len(sub); k++ {
			l, ln := sub[k], subLine+k
			if blank(l) {
				continue
			}
			if indent(l) != ind || !isItem(l) {
				return Value{}, errorf(ln, `expected a list item "- value" indented like the first`)
			}
			item, err := parseItem(strings.TrimPrefix(strings.TrimLeft(l, " "), "-"), ln)
			if err != nil {
				return Value{}, err
			}
			items = append(items, item)
		}
		return Value{Kind: List, Items: items}, nil
	}
	var entries []Field
	seen := map[string]int{}
	for k := start; k < len(sub); k++ {
		l, ln := sub[k], subLine+k
		if blank(l) {
			continue
		}
		if indent(l) != ind {
			return Value{}, errorf(ln, "only one level of nested keys is supported, indented alike")
		}
		key, val, err := cutKey(l[ind:], ln)
		if err != nil {
			return Value{}, err
		}
		if prev, ok := seen[key]; ok {
			return Value{}, errorf(ln, "key %q is already set on line %d", key, prev)
		}
		seen[key] = ln
		s, err := parseItem(val, ln)
		if err != nil {
			return Value{}, err
		}
		entries = append(entries, Field{Key: key, Line: ln, Value: Value{Kind: Scalar, Str: s}})
	}
	return Value{Kind: Map, Entries: entries}, nil
}

// parseItem reads one string of a list or nested map: plain or quoted, on
// one line.
func parseItem(s string, ln int) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '"', '\'':
		v, rest, err := quoted(s, ln)
		if err != nil {
			return "", err
		}
		if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
			return "", errorf(ln, "unexpected %q after the closing quote", clip(rest))
		}
		return v, nil
	case '[', '{', '|', '>', '&', '*', '!', '%', '@', '`':
		return "", errorf(ln, "only strings are supported here: quote %q", clip(s))
	case '-':
		if s == "-" || strings.HasPrefix(s, "- ") {
			return "", errorf(ln, "nested lists are not supported")
		}
	}
	s = plain(s)
	if k := strings.Index(s, ": "); k >= 0 || strings.HasSuffix(s, ":") {
		return "", errorf(ln, "only strings are supported here: quote %q", clip(s))
	}
	return s, nil
}

// parseBlockScalar reads a "|" (literal) or ">" (folded) value from the
// lines under its key, with YAML's chomping: "-" drops the final line
// break, "+" keeps every trailing one.
func parseBlockScalar(val string, sub []string, keyLine, subLine int) (Value, error) {
	head := plain(val)
	style, chomp := head[0], ""
	if len(head) > 1 {
		chomp = head[1:]
	}
	if chomp != "" && chomp != "-" && chomp != "+" {
		return Value{}, errorf(keyLine, `block scalar %q: use "|", "|-", "|+", ">", ">-" or ">+"`, head)
	}
	ind := -1
	var lines []string
	for k, l := range sub {
		if strings.TrimSpace(l) == "" {
			lines = append(lines, "")
			continue
		}
		if strings.HasPrefix(l, "\t") {
			return Value{}, errorf(subLine+k, "tabs cannot indent a value: use spaces")
		}
		if ind < 0 {
			ind = indent(l)
		}
		if indent(l) < ind {
			return Value{}, errorf(subLine+k, "line is indented less than the first line of the block")
		}
		lines = append(lines, l[ind:])
	}
	end := len(lines)
	for end > 0 && lines[end-1] == "" {
		end--
	}
	trailing := len(lines) - end
	lines = lines[:end]
	var s string
	if style == '|' {
		s = strings.Join(lines, "\n")
	} else {
		s = foldBlock(lines)
	}
	switch {
	case s == "":
	case chomp == "-":
	case chomp == "+":
		s += strings.Repeat("\n", trailing+1)
	default:
		s += "\n"
	}
	return Value{Kind: Scalar, Str: s, Quoted: true}, nil
}

// foldBlock joins a folded block's lines: lines next to each other become
// one, separated by a space; each empty line is a line break; lines
// indented more than the block keep their line breaks.
func foldBlock(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			switch {
			case l == "":
				b.WriteByte('\n')
			case prev == "":
				// The empty lines before l stand for the break.
			case strings.HasPrefix(l, " ") || strings.HasPrefix(prev, " "):
				b.WriteByte('\n')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// parseFlow reads a one-line flow list "[a, 'b', "c"]".
func parseFlow(val string, ln int) ([]string, error) {
	rest := val[1:]
	items := []string{}
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return nil, errorf(ln, `flow list is not closed by "]"`)
		}
		if rest[0] == ']' && len(items) == 0 {
			rest = rest[1:]
			break
		}
		var item string
		switch rest[0] {
		case '"', '\'':
			s, after, err := quoted(rest, ln)
			if err != nil {
				return nil, err
			}
			item, rest = s, after
		case '[', '{':
			return nil, errorf(ln, "nested lists and maps are not supported")
		default:
			k := strings.IndexAny(rest, ",]")
			if k < 0 {
				return nil, errorf(ln, `flow list is not closed by "]"`)
			}
			item, rest = strings.TrimSpace(rest[:k]), rest[k:]
			if item == "" {
				return nil, errorf(ln, "empty item in flow list")
			}
		}
		items = append(items, item)
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return nil, errorf(ln, `flow list is not closed by "]"`)
		}
		if rest[0] == ']' {
			rest = rest[1:]
			break
		}
		if rest[0] != ',' {
			return nil, errorf(ln, "expected \",\" or \"]\" in flow list, found %q", clip(rest))
		}
		rest = rest[1:]
		if t := strings.TrimLeft(rest, " \t"); strings.HasPrefix(t, "]") {
			rest = t[1:]
			break
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return nil, errorf(ln, "unexpected %q after the flow list", clip(rest))
	}
	return items, nil
}

// clip shortens s for an error message.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
