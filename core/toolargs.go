package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// A tool call's arguments are read by several parties: the approval gate,
// the question a person answers, the previews front ends draw, and the tool.
// JSON parsers disagree on duplicate keys (first or last wins) and on case
// (encoding/json matches "Command" to a field named command), so arguments
// that say two things could show one command and run another. Arguments are
// therefore read once, strictly, by CheckArguments, and everyone is handed
// its canonical re-encoding, which every parser reads the same way.

// ArgumentsError says why a call's arguments were refused: which key, where,
// and what the tool takes instead. Its Error is worded for the model, which
// sees it as the call's result.
type ArgumentsError struct {
	// Tool is the tool's name.
	Tool string
	// Problem says what is wrong, naming the key and where it is
	// ("edits[0]: \"OldText\" is not a parameter ...").
	Problem string
	// Params are the tool's top-level parameters, sorted, for the hint.
	Params []string
}

// Error tells the model what was wrong and that the call did not run.
func (e *ArgumentsError) Error() string {
	msg := fmt.Sprintf("The arguments of this %s call were refused, so it was not run: %s.", e.Tool, e.Problem)
	if len(e.Params) > 0 {
		msg += fmt.Sprintf(" Send the call again with each parameter once, spelled exactly as declared (%s).", strings.Join(e.Params, ", "))
	} else {
		msg += " Send the call again with each key once."
	}
	return msg
}

// CheckArguments reads the JSON arguments of a call of the tool spec
// describes and returns them re-encoded in canonical form: no white space,
// keys in the order given, strings with invalid UTF-8 and lone surrogates
// replaced by U+FFFD (as encoding/json reads them). Empty arguments are {}.
//
// It refuses, with an *ArgumentsError, arguments that are not one JSON
// object, and at any depth a key given twice, two keys that differ only in
// case, and a key the schema does not declare where it declares its keys:
// an object schema with "properties" takes only those keys (including one
// that differs only in case from a declared one), unless its
// "additionalProperties" is true or a schema; one without "properties" takes
// any keys. Types and required keys are left to the tool, which words its
// own errors.
func CheckArguments(spec ToolSpec, raw json.RawMessage) (json.RawMessage, error) {
	// Only JSON's own white space: strings.TrimSpace would also take a
	// form feed, which JSON refuses.
	trimmed := strings.Trim(string(raw), " \t\r\n")
	if trimmed == "" {
		return json.RawMessage(`{}`), nil
	}
	root := parseSchema(spec.Parameters)
	c := canonicalizer{tool: spec.Name, root: root}
	c.s.Reset([]byte(trimmed))
	if c.s.Kind() != jsonscan.Object {
		return nil, c.fail("", "the arguments must be one JSON object")
	}
	out := make([]byte, 0, len(trimmed))
	out = c.value(out, root, "")
	if c.err != nil {
		return nil, c.err
	}
	if err := c.s.End(); err != nil {
		return nil, c.fail("", "the arguments are not valid JSON: "+err.Error())
	}
	return out, nil
}

// canonicalizer walks one value, checking keys and writing the canonical
// form; the first problem stops it.
type canonicalizer struct {
	tool string
	root schema
	s    jsonscan.Scanner
	err  *ArgumentsError
}

func (c *canonicalizer) fail(where, problem string) *ArgumentsError {
	if c.err == nil {
		if where != "" {
			problem = where + ": " + problem
		}
		c.err = &ArgumentsError{Tool: c.tool, Problem: problem, Params: c.root.names()}
	}
	return c.err
}

// value appends the canonical form of the next value, checked against sc.
func (c *canonicalizer) value(out []byte, sc schema, where string) []byte {
	switch c.s.Kind() {
	case jsonscan.Object:
		return c.object(out, sc, where)
	case jsonscan.Array:
		out = append(out, '[')
		for i := range c.s.Array() {
			if i > 0 {
				out = append(out, ',')
			}
			out = c.value(out, sc.item(i), fmt.Sprintf("%s[%d]", where, i))
			if c.err != nil {
				return out
			}
		}
		return append(out, ']')
	case jsonscan.String:
		return jsonscan.AppendString(out, c.s.Str())
	case jsonscan.Number:
		return append(out, c.s.Number()...)
	case jsonscan.Bool:
		if c.s.Bool() {
			return append(out, "true"...)
		}
		return append(out, "false"...)
	case jsonscan.Null:
		c.s.Null()
		return append(out, "null"...)
	}
	c.s.Skip() // records the syntax error
	if err := c.s.Err(); err != nil {
		c.fail("", "the arguments are not valid JSON: "+err.Error())
	}
	return out
}

// object appends the canonical form of the object that comes next.
func (c *canonicalizer) object(out []byte, sc schema, where string) []byte {
	out = append(out, '{')
	seen := map[string]string{} // folded key → key as given
	n := 0
	for k := range c.s.Object() {
		key := string(k)
		name := where + "." + key
		if where == "" {
			name = key
		}
		folded := foldKey(key)
		if first, dup := seen[folded]; dup {
			if first == key {
				c.fail(where, fmt.Sprintf("%s appears twice", quoteKey(key)))
			} else {
				c.fail(where, fmt.Sprintf("%s and %s differ only in case; keys are case-sensitive", quoteKey(first), quoteKey(key)))
			}
			return out
		}
		seen[folded] = key
		sub, problem := sc.member(key)
		if problem != "" {
			c.fail(where, problem)
			return out
		}
		if n > 0 {
			out = append(out, ',')
		}
		n++
		out = jsonscan.AppendString(out, key)
		out = append(out, ':')
		out = c.value(out, sub, name)
		if c.err != nil {
			return out
		}
	}
	if err := c.s.Err(); err != nil {
		c.fail("", "the arguments are not valid JSON: "+err.Error())
	}
	return append(out, '}')
}

// quoteKey quotes a key for a message, its control characters escaped so
// that the message shows them rather than acting on a terminal.
func quoteKey(k string) string {
	const maxShown = 64
	if utf8.RuneCountInString(k) > maxShown {
		k = string([]rune(k)[:maxShown]) + "…"
	}
	return string(jsonscan.AppendString(nil, k))
}

// foldKey maps a key to one spelling shared by every key that equals it
// under Unicode simple case folding (what strings.EqualFold and
// encoding/json's field matching compare by), so keys a parser might
// confuse meet in one map entry.
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// schema is the little of a JSON Schema CheckArguments reads: which keys an
// object takes and the schemas of its members and items. The zero schema
// takes anything.
type schema struct {
	// props are the declared properties; nil when the schema declares
	// none, and then any key is taken.
	props map[string]json.RawMessage
	// extra is additionalProperties: absent or false refuses undeclared
	// keys when props is set; true or a schema takes them.
	extra json.RawMessage
	// items is the schema of array elements (one object), or of each
	// position (an array, as older drafts write tuples).
	items json.RawMessage
}

// parseSchema reads raw, taking anything when it is not an object schema.
// Keywords are matched exactly, so a schema means what a validator reads.
func parseSchema(raw json.RawMessage) schema {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return schema{}
	}
	var sc schema
	if p, ok := m["properties"]; ok {
		if json.Unmarshal(p, &sc.props) != nil || sc.props == nil {
			sc.props = map[string]json.RawMessage{}
		}
	}
	if _, ok := m["patternProperties"]; ok && sc.props != nil {
		// Keys matching a pattern are taken too; the patterns are
		// ECMAScript regular expressions, so any key is let through.
		sc.extra = json.RawMessage(`true`)
	}
	if e, ok := m["additionalProperties"]; ok && sc.extra == nil {
		sc.extra = e
	}
	sc.items = m["items"]
	if p, ok := m["prefixItems"]; ok {
		sc.items = p
	}
	return sc
}

// member returns the schema of key in an object of sc, or why the key is
// refused.
func (sc schema) member(key string) (schema, string) {
	if sc.props == nil {
		return sc.additional(), ""
	}
	if p, ok := sc.props[key]; ok {
		return parseSchema(p), ""
	}
	if sc.takesAdditional() {
		return sc.additional(), ""
	}
	for name := range sc.props {
		if strings.EqualFold(name, key) {
			return schema{}, fmt.Sprintf("%s is not a parameter; parameter names are case-sensitive: use %s", quoteKey(key), quoteKey(name))
		}
	}
	return schema{}, fmt.Sprintf("%s is not a parameter", quoteKey(key))
}

// takesAdditional reports whether undeclared keys are allowed.
func (sc schema) takesAdditional() bool {
	e := strings.TrimSpace(string(sc.extra))
	return e != "" && e != "false"
}

// additional is the schema of an undeclared key.
func (sc schema) additional() schema {
	if strings.HasPrefix(strings.TrimSpace(string(sc.extra)), "{") {
		return parseSchema(sc.extra)
	}
	return schema{}
}

// item is the schema of element i of an array.
func (sc schema) item(i int) schema {
	items := strings.TrimSpace(string(sc.items))
	if strings.HasPrefix(items, "[") {
		var tuple []json.RawMessage
		if json.Unmarshal(sc.items, &tuple) == nil && i < len(tuple) {
			return parseSchema(tuple[i])
		}
		return schema{}
	}
	return parseSchema(sc.items)
}

// names lists the declared top-level keys, sorted.
func (sc schema) names() []string {
	names := make([]string, 0, len(sc.props))
	for n := range sc.props {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
