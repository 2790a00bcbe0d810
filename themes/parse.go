package themes

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// exportKeys are the optional colours of the "export" section, in order.
var exportKeys = [...]string{"pageBg", "cardBg", "infoBg"}

// Parse reads a theme file and checks it completely: every token present,
// every value a colour, every var reference defined and free of cycles. It
// reports all problems at once, one per line (errors.Join), each naming the
// theme and the bad key, for example:
//
//	theme "x": colors.mdHeading: "#12345" is not a colour (use "#rrggbb", 0-255, a var name, or "")
//	theme "x": missing token toolDiffAdded
//
// Keys in "colors" or "export" that cairn does not know are not errors; they
// are listed in the returned theme's Warnings.
func Parse(data []byte) (*Theme, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("theme: %s", describeJSONError(data, err))
	}
	p := parser{label: "theme"}
	name := p.name(top["name"])
	if name != "" {
		p.label = fmt.Sprintf("theme %q", name)
	}
	vars := p.section(top, "vars")
	colors := p.section(top, "colors")
	export := p.section(top, "export")
	if top["colors"] == nil {
		p.fail(`missing "colors"`)
	}
	// Listing all 51 tokens as missing would bury the real problem.
	reportMissing := colors != nil

	t := &Theme{Name: name}
	p.vars = make(map[string]rawValue, len(vars))
	for k, raw := range vars {
		p.vars[k] = parseRaw(raw)
	}
	p.checkVars()

	var missing []string
	for i, tok := range allTokens {
		raw, ok := colors[string(tok)]
		if !ok {
			if reportMissing {
				missing = append(missing, string(tok))
			}
			continue
		}
		t.values[i], _ = p.resolve("colors."+string(tok), parseRaw(raw))
	}
	if len(missing) == 1 {
		p.fail("missing token %s", missing[0])
	} else if len(missing) > 1 {
		p.fail("missing tokens %s", strings.Join(missing, ", "))
	}
	for _, k := range sortedKeys(colors) {
		if !Token(k).Known() {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s: colors.%s is not a cairn token; ignored", p.label, k))
		}
	}

	// The renderings for terminals with fewer colours: only the tokens a
	// theme names change; see Theme.ForProfile for the rest.
	for n, key := range lowColorKeys {
		section := p.section(top, key)
		for _, k := range sortedKeys(section) {
			i, ok := tokenIndex[Token(k)]
			if !ok {
				t.Warnings = append(t.Warnings, fmt.Sprintf("%s: %s.%s is not a cairn token; ignored", p.label, key, k))
				continue
			}
			if v, ok := p.resolve(key+"."+k, parseRaw(section[k])); ok {
				if t.low[n] == nil {
					t.low[n] = map[int]value{}
				}
				t.low[n][i] = v
			}
		}
	}

	for i, k := range exportKeys {
		if raw, ok := export[k]; ok {
			t.export[i], t.exportSet[i] = p.resolve("export."+k, parseRaw(raw))
		}
	}
	for _, k := range sortedKeys(export) {
		if !slices.Contains(exportKeys[:], k) {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s: export.%s is not an export colour; ignored", p.label, k))
		}
	}

	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	t.finish()
	return t, nil
}

// parser collects the problems of one theme file.
type parser struct {
	label string // `theme "name"`, or `theme` while the name is unknown
	vars  map[string]rawValue
	bad   map[string]bool // vars already reported as broken
	errs  []error
}

func (p *parser) fail(format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s: %s", p.label, fmt.Sprintf(format, args...)))
}

// name reads the required, non-empty "name" string.
func (p *parser) name(raw json.RawMessage) string {
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" {
		p.fail(`"name" must be a non-empty string`)
		return ""
	}
	return s
}

// section decodes an optional object-valued top-level key.
func (p *parser) section(top map[string]json.RawMessage, key string) map[string]json.RawMessage {
	raw, ok := top[key]
	if !ok {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		p.fail("%q must be an object", key)
		return nil
	}
	return m
}

// checkVars reports every broken var once: a bad value, a reference to an
// undefined var, or a cycle. Vars are visited in name order so the messages
// are stable.
func (p *parser) checkVars() {
	p.bad = make(map[string]bool)
	state := make(map[string]int) // 0 unseen, 1 on the current path, 2 done
	var visit func(name string, path []string)
	visit = func(name string, path []string) {
		switch state[name] {
		case 1:
			start := slices.Index(path, name)
			cycle := append(slices.Clone(path[start:]), name)
			p.fail("vars.%s: circular reference %s", name, strings.Join(cycle, " -> "))
			for _, n := range path[start:] {
				p.bad[n] = true
			}
			return
		case 2:
			return
		}
		state[name] = 1
		path = append(path, name)
		rv := p.vars[name]
		switch {
		case !rv.ok:
			p.fail("vars.%s: %s %s", name, rv.source, notAColour)
			p.bad[name] = true
		case rv.ref != "":
			if _, ok := p.vars[rv.ref]; !ok {
				p.fail("vars.%s: unknown var %q%s", name, rv.ref, p.varHint())
				p.bad[name] = true
			} else {
				visit(rv.ref, path)
				if p.bad[rv.ref] {
					p.bad[name] = true
				}
			}
		}
		state[name] = 2
	}
	for _, name := range sortedKeys(p.vars) {
		visit(name, nil)
	}
}

// resolve turns a raw value into a colour, following var references. A
// broken var was reported by checkVars, so it fails here silently.
func (p *parser) resolve(key string, rv rawValue) (value, bool) {
	if !rv.ok {
		p.fail("%s: %s %s", key, rv.source, notAColour)
		return value{}, false
	}
	for seen := 0; rv.ref != ""; seen++ {
		next, ok := p.vars[rv.ref]
		if !ok {
			p.fail("%s: unknown var %q%s", key, rv.ref, p.varHint())
			return value{}, false
		}
		if p.bad[rv.ref] || seen > len(p.vars) {
			return value{}, false
		}
		rv = next
	}
	return rv.v, true
}

// varHint lists the defined vars after an unknown-var message.
func (p *parser) varHint() string {
	if len(p.vars) == 0 {
		return ` (the theme has no "vars")`
	}
	return " (vars: " + strings.Join(sortedKeys(p.vars), ", ") + ")"
}

// describeJSONError adds a line and column to JSON syntax errors.
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field == "" {
			return "a theme must be a JSON object"
		}
		return "invalid JSON: " + err.Error()
	}
	before := data[:min(int(syn.Offset), len(data))]
	line := 1 + strings.Count(string(before), "\n")
	// Offset counts the offending byte, so the column is one less.
	col := max(1, len(before)-strings.LastIndexByte(string(before), '\n')-1)
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, syn.Error())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
