package frontmatter

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// quoted reads the quoted string at the start of s ('single', with ''
// for a quote, or "double", with backslash escapes) and returns it and what
// follows the closing quote.
func quoted(s string, ln int) (string, string, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), s[i+1:], nil
		case c == '\\' && q == '"':
			if i+1 >= len(s) {
				return "", "", errorf(ln, "a backslash ends the line inside a quoted value")
			}
			n, err := escape(s[i+1:], &b)
			if err != nil {
				return "", "", errorf(ln, "%s", err.Error())
			}
			i += n
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errorf(ln, "the quote %c is not closed on this line", q)
}

// escape writes the character of the escape that starts s (after the
// backslash) to b and returns how many bytes of s it took.
func escape(s string, b *strings.Builder) (int, error) {
	simple := map[byte]string{'\\': "\\", '"': "\"", '/': "/", 'n': "\n", 't': "\t", 'r': "\r", '0': "\x00", ' ': " ", 'e': "\x1b", 'a': "\a", 'b': "\b", 'f': "\f", 'v': "\v"}
	if r, ok := simple[s[0]]; ok {
		b.WriteString(r)
		return 1, nil
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
	if width == 0 {
		return 0, errors.New("unknown escape \\" + string(s[0]) + ` in a "double-quoted" value: write \\ for a backslash`)
	}
	if len(s) < 1+width {
		return 0, errors.New("escape \\" + string(s[0]) + " needs " + strconv.Itoa(width) + " hex digits")
	}
	n, err := strconv.ParseUint(s[1:1+width], 16, 32)
	if err != nil || !utf8.ValidRune(rune(n)) {
		return 0, errors.New("escape \\" + s[:1+width] + " is not a valid character")
	}
	b.WriteRune(rune(n))
	return 1 + width, nil
}

// Get returns the field called key.
func (d Doc) Get(key string) (Field, bool) {
	for _, f := range d.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// kindName names k for an error message.
func kindName(k Kind) string {
	switch k {
	case Null:
		return "nothing"
	case Scalar:
		return "a string"
	case List:
		return "a list"
	}
	return "nested keys"
}

// String returns key's string; a missing or empty key is "".
func (d Doc) String(key string) (string, error) {
	f, ok := d.Get(key)
	if !ok || f.Value.Kind == Null {
		return "", nil
	}
	if f.Value.Kind != Scalar {
		return "", errorf(f.Line, "%s: expected a string, found %s", key, kindName(f.Value.Kind))
	}
	return f.Value.Str, nil
}

// List returns key's list: a YAML list, or a string of items separated by
// commas ("Read, Grep"), each trimmed, empty ones dropped. A missing or
// empty key is nil.
func (d Doc) List(key string) ([]string, error) {
	f, ok := d.Get(key)
	if !ok {
		return nil, nil
	}
	switch f.Value.Kind {
	case Null:
		return nil, nil
	case List:
		return f.Value.Items, nil
	case Scalar:
		var out []string
		for _, s := range strings.Split(f.Value.Str, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, errorf(f.Line, "%s: expected a list, found %s", key, kindName(f.Value.Kind))
}

// Bool returns key's boolean: an unquoted true or false (any case). A
// missing or empty key is false.
func (d Doc) Bool(key string) (bool, error) {
	f, ok := d.Get(key)
	if !ok || f.Value.Kind == Null {
		return false, nil
	}
	if f.Value.Kind == Scalar && !f.Value.Quoted {
		switch strings.ToLower(f.Value.Str) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	found := kindName(f.Value.Kind)
	if f.Value.Kind == Scalar {
		found = strconv.Quote(clip(f.Value.Str))
	}
	return false, errorf(f.Line, "%s: expected true or false, found %s", key, found)
}

// Map returns the entries of key's nested keys; a missing or empty key
// has none.
func (d Doc) Map(key string) ([]Field, error) {
	f, ok := d.Get(key)
	if !ok || f.Value.Kind == Null {
		return nil, nil
	}
	if f.Value.Kind != Map {
		return nil, errorf(f.Line, "%s: expected nested keys, found %s", key, kindName(f.Value.Kind))
	}
	return f.Value.Entries, nil
}

// Unknown returns the fields whose key is not one of known, in file order,
// so a caller can report keys it does not use.
func (d Doc) Unknown(known ...string) []Field {
	var out []Field
	for _, f := range d.Fields {
		found := false
		for _, k := range known {
			if f.Key == k {
				found = true
				break
			}
		}
		if !found {
			out = append(out, f)
		}
	}
	return out
}
