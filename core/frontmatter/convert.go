package frontmatter

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// The YAML 1.2 core schema's tags.
const (
	strTag   = "!!str"
	nullTag  = "!!null"
	boolTag  = "!!bool"
	intTag   = "!!int"
	floatTag = "!!float"
)

// converter turns go-yaml's nodes into Values, counting them so aliases
// cannot expand without bound.
type converter struct {
	nodes int
}

// value converts n, found depth levels down.
func (c *converter) value(n *yaml.Node, depth int) (Value, error) {
	if c.nodes++; c.nodes > MaxNodes {
		return Value{}, errorf(n.Line+1, "front matter expands to more than %d values (through aliases?)", MaxNodes)
	}
	if depth > MaxDepth {
		return Value{}, errorf(n.Line+1, "front matter nests more than %d levels deep", MaxDepth)
	}
	line := n.Line + 1
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return Value{}, errorf(line, "alias *%s names no anchor", n.Value)
		}
		v, err := c.value(n.Alias, depth+1)
		v.Line = line
		return v, err
	case yaml.ScalarNode:
		tag := scalarTag(n)
		if tag == nullTag {
			return Value{Kind: Null, Line: line}, nil
		}
		return Value{Kind: Scalar, Str: n.Value, Tag: tag, Line: line}, nil
	case yaml.SequenceNode:
		v := Value{Kind: List, Line: line, Items: make([]Value, 0, len(n.Content))}
		for _, item := range n.Content {
			iv, err := c.value(item, depth+1)
			if err != nil {
				return Value{}, err
			}
			v.Items = append(v.Items, iv)
		}
		return v, nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	}
	return Value{}, errorf(line, "front matter holds a YAML value cairn cannot read")
}

// mapping converts a map, refusing a key written twice as YAML does.
func (c *converter) mapping(n *yaml.Node, depth int) (Value, error) {
	v := Value{Kind: Map, Line: n.Line + 1, Entries: make([]Field, 0, len(n.Content)/2)}
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key, err := c.key(k, depth)
		if err != nil {
			return Value{}, err
		}
		if first, ok := seen[key]; ok {
			return Value{}, errorf(k.Line+1, "key %q is given twice (first on line %d): keep one", clip(key), first)
		}
		seen[key] = k.Line + 1
		fv, err := c.value(val, depth+1)
		if err != nil {
			return Value{}, err
		}
		v.Entries = append(v.Entries, Field{Key: key, Line: k.Line + 1, Value: fv})
	}
	return v, nil
}

// key is a map key's text: a scalar as written, a list or map in flow
// form, as JavaScript readers turn such keys into strings.
func (c *converter) key(k *yaml.Node, depth int) (string, error) {
	for k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind == yaml.ScalarNode {
		return k.Value, nil
	}
	kv, err := c.value(k, depth+1)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	flow(&b, kv)
	return b.String(), nil
}

// flow writes v in YAML's flow form.
func flow(b *strings.Builder, v Value) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Scalar:
		b.WriteString(v.Str)
	case List:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			flow(b, it)
		}
		b.WriteByte(']')
	case Map:
		b.WriteByte('{')
		for i, f := range v.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Key + ": ")
			flow(b, f.Value)
		}
		b.WriteByte('}')
	}
}

// scalarTag is n's type in YAML 1.2's core schema. go-yaml also reads
// YAML 1.1 forms that 1.2 (and pi's reader) take as strings: timestamps
// and numbers with "_" in them.
func scalarTag(n *yaml.Node) string {
	tag := n.ShortTag()
	switch {
	case tag == "!!timestamp" || tag == "!!binary" || tag == "!!merge":
		return strTag
	case (tag == intTag || tag == floatTag) && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && strings.Contains(n.Value, "_"):
		return strTag
	}
	return tag
}
