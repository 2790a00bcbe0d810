package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object that remembers the order of its keys, so a file
// cairn rewrites keeps the layout its owner gave it. Values are nil, bool,
// json.Number, string, []any or *object. As in JavaScript, a key given twice
// keeps its first position and its last value.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

func (o *object) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *object) remove(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// lookup returns the value at a path of keys.
func (o *object) lookup(path []string) (any, bool) {
	var cur any = o
	for _, key := range path {
		obj, ok := cur.(*object)
		if !ok {
			return nil, false
		}
		if cur, ok = obj.get(key); !ok {
			return nil, false
		}
	}
	return cur, true
}

// setPath puts v at path, creating the objects on the way. It refuses to
// replace a value that is not an object by one that is: that would silently
// drop whatever the user had there.
func (o *object) setPath(path []string, v any) error {
	cur := o
	for i, key := range path[:len(path)-1] {
		next, ok := cur.get(key)
		if !ok || next == nil {
			obj := newObject()
			cur.set(key, obj)
			cur = obj
			continue
		}
		obj, ok := next.(*object)
		if !ok {
			return fmt.Errorf("%s holds %s, not an object", strings.Join(path[:i+1], "."), kindOf(next))
		}
		cur = obj
	}
	cur.set(path[len(path)-1], v)
	return nil
}

// removePath deletes the value at path, if there is one.
func (o *object) removePath(path []string) {
	parent, ok := o.lookup(path[:len(path)-1])
	if obj, isObj := parent.(*object); ok && isObj {
		obj.remove(path[len(path)-1])
	}
}

// merge returns base with over laid on top the way pi merges its settings
// files: where both hold an object under the same top-level key, the two
// are merged key by key; any other value of over, deeper objects included,
// replaces base's whole. Neither argument is changed.
func merge(base, over *object) *object {
	out := cloneValue(base).(*object)
	for _, key := range over.keys {
		ov := over.vals[key]
		bo, baseIsObj := out.vals[key].(*object)
		oo, overIsObj := ov.(*object)
		if baseIsObj && overIsObj {
			for _, k := range oo.keys {
				bo.set(k, cloneValue(oo.vals[k]))
			}
			continue
		}
		out.set(key, cloneValue(ov))
	}
	return out
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), v.keys...), vals: make(map[string]any, len(v.vals))}
		for k, x := range v.vals {
			c.vals[k] = cloneValue(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = cloneValue(x)
		}
		return c
	}
	return v
}

// kindOf names a value's JSON type for messages.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// SyntaxError is a settings file that is not a JSON object, with the line
// and column (both from 1, columns in bytes) where reading it failed.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

// Error gives the position and the problem.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

var bom = []byte("\xef\xbb\xbf")

// parseObject reads a JSON object, keeping its key order. A leading UTF-8
// byte order mark is skipped, as editors on some systems write one.
func parseObject(data []byte) (*object, error) {
	data = bytes.TrimPrefix(data, bom)
	if len(bytes.TrimSpace(data)) == 0 {
		return newObject(), nil // an empty file holds no settings, as in pi
	}
	// json.Unmarshal checks the whole input before decoding anything, and
	// its SyntaxError carries the offset we turn into a line and column.
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, syntaxErrorAt(data, se.Offset, strings.TrimPrefix(se.Error(), "json: "))
		}
		return nil, err
	}
	start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	if data[start] != '{' {
		return nil, syntaxErrorAt(data, int64(start)+1, "settings must be a JSON object ({ ... })")
	}
	v, err := parseValue(raw)
	if err != nil {
		return nil, err
	}
	return v.(*object), nil
}

// syntaxErrorAt describes a failure just before byte offset off of data.
func syntaxErrorAt(data []byte, off int64, msg string) *SyntaxError {
	off = max(0, min(off-1, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// parseValue decodes one valid JSON value into the representation object
// uses.
func parseValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := newObject()
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			obj.set(keyTok.(string), v)
		}
		_, err := dec.Token() // '}'
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token() // ']'
		return arr, err
	}
	return tok, nil
}

// toValue converts a Go value to the representation object uses, through
// its JSON encoding.
func toValue(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return parseValue(raw)
}

// encode writes v as JSON indented by two spaces per level, the layout pi
// writes, without escaping <, > and & the way HTML needs.
func encode(buf *bytes.Buffer, v any, indent string) {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if v {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(string(v))
	case string:
		encodeString(buf, v)
	case []any:
		if len(v) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[")
		for i, x := range v {
			if i > 0 {
				buf.WriteString(",")
			}
			buf.WriteString("\n" + indent + "  ")
			encode(buf, x, indent+"  ")
		}
		buf.WriteString("\n" + indent + "]")
	case *object:
		if len(v.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{")
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteString(",")
			}
			buf.WriteString("\n" + indent + "  ")
			encodeString(buf, k)
			buf.WriteString(": ")
			encode(buf, v.vals[k], indent+"  ")
		}
		buf.WriteString("\n" + indent + "}")
	}
}

func encodeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Truncate(buf.Len() - 1)
}

// compact returns v as compact JSON, for decoding into Go types.
func compact(v any) []byte {
	var buf bytes.Buffer
	encode(&buf, v, "")
	var out bytes.Buffer
	if err := json.Compact(&out, buf.Bytes()); err != nil {
		return buf.Bytes()
	}
	return out.Bytes()
}
