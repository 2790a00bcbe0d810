package frontmatter

import (
	"strconv"
	"strings"
)

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

// String returns key's text: a string, or a number or boolean as written.
// A missing or empty key is "".
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

// List returns key's list: a YAML list of strings (empty items dropped),
// or a string of items separated by commas ("Read, Grep"), each trimmed,
// empty ones dropped. A missing or empty key is nil.
func (d Doc) List(key string) ([]string, error) {
	f, ok := d.Get(key)
	if !ok {
		return nil, nil
	}
	return f.Value.list(key, f.Line)
}

// list is v's strings, as List reads them.
func (v Value) list(key string, line int) ([]string, error) {
	switch v.Kind {
	case Null:
		return nil, nil
	case List:
		var out []string
		for _, it := range v.Items {
			switch it.Kind {
			case Null:
			case Scalar:
				if s := strings.TrimSpace(it.Str); s != "" {
					out = append(out, s)
				}
			default:
				return nil, errorf(it.Line, "%s: expected a list of strings, found %s in it", key, kindName(it.Kind))
			}
		}
		return out, nil
	case Scalar:
		var out []string
		for _, s := range strings.Split(v.Str, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, errorf(line, "%s: expected a list, found %s", key, kindName(v.Kind))
}

// Bool returns key's boolean: an unquoted true or false (any case, as
// YAML 1.2 reads them). A missing or empty key is false.
func (d Doc) Bool(key string) (bool, error) {
	f, ok := d.Get(key)
	if !ok || f.Value.Kind == Null {
		return false, nil
	}
	if f.Value.Kind == Scalar && f.Value.Tag == boolTag {
		return strings.EqualFold(f.Value.Str, "true"), nil
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
