// Package frontmatter reads the front matter of a Markdown file: a YAML
// block between a first line "---" and the next line starting with "---",
// as skills (SKILL.md), agent definitions and prompt templates use. The
// YAML is read by go.yaml.in/yaml/v3 (YAML 1.2, as pi's reader), so
// everything YAML allows is read: flow maps and lists at any depth, block
// scalars, multi-line plain scalars, anchors.
//
// The text is untrusted: the block is bounded (MaxSize), and so are the
// values it may expand to through aliases (MaxNodes) and its depth
// (MaxDepth). A block YAML cannot read, or that repeats a key, is an
// error naming its line.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// MaxSize bounds the front matter block, in bytes: a file whose block is
// larger, or whose opening "---" is not closed within that many bytes, is
// refused with an Error.
const MaxSize = 64 << 10

// MaxNodes bounds the values a front matter holds once its aliases are
// expanded, so a few lines of "*a" cannot grow into millions of values.
const MaxNodes = 10000

// MaxDepth bounds how deeply values nest.
const MaxDepth = 64

// Error is a front matter that cannot be read, or a value of the wrong
// type: Line is the 1-based line of the file it is on (0 when YAML did not
// say).
type Error struct {
	// Line is the 1-based line number in the file.
	Line int
	// Msg says what is wrong and, where it helps, what would be right.
	Msg string
	// notClosed marks ErrNotClosed.
	notClosed bool
}

// ErrNotClosed is what an Error for a front matter opened and never closed
// wraps: a reader for which "---" may just be a Markdown rule (a prompt
// template) can take such a file as all body.
var ErrNotClosed = errors.New("front matter not closed")

// Unwrap returns ErrNotClosed for a front matter that is not closed.
func (e *Error) Unwrap() error {
	if e.notClosed {
		return ErrNotClosed
	}
	return nil
}

// Error returns "line N: what is wrong".
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Kind says what shape a value has.
type Kind int

// The kinds of value.
const (
	// Null is a key with nothing after it ("key:"), or null or "~".
	Null Kind = iota
	// Scalar is a single value: a string, number or boolean.
	Scalar
	// List is a YAML sequence, in block ("- a") or flow ("[a, b]") form.
	List
	// Map is a YAML mapping, in block or flow ("{a: 1}") form.
	Map
)

// Value is one value of the front matter.
type Value struct {
	// Kind says which of the fields below holds the value.
	Kind Kind
	// Str is a Scalar's text, quotes and escapes removed, as written for
	// a number or boolean ("1.0", "true").
	Str string
	// Tag is a Scalar's YAML 1.2 type: "!!str", "!!int", "!!float" or
	// "!!bool" (or a tag the file gives, such as "!custom").
	Tag string
	// Line is the 1-based line of the file the value starts on.
	Line int
	// Items holds a List's values.
	Items []Value
	// Entries holds a Map's keys and values, in file order.
	Entries []Field
}

// IsString reports whether v is a YAML string: quoted, or plain text that
// is not a number, boolean or null. It is what JavaScript readers (pi's)
// see as a string.
func (v Value) IsString() bool { return v.Kind == Scalar && v.Tag == strTag }

// Field is one key of the front matter, or of a nested map.
type Field struct {
	// Key is the key as written; a key that is itself a list or map is
	// written in flow form ("[a, b]").
	Key string
	// Line is the 1-based line of the file the key is on.
	Line int
	// Value is the key's value.
	Value Value
}

// Doc is a parsed file: its front matter's fields and its body.
type Doc struct {
	// Found is true when the file starts with a front matter block.
	Found bool
	// Fields are the front matter's keys in file order, each once.
	Fields []Field
	// Body is the text after the closing "---" line (all of it when Found
	// is false), with "\r\n" and "\r" turned into "\n".
	Body string
	// BodyLine is the 1-based line of the file Body starts on.
	BodyLine int
}

// Parse splits text into its front matter and body and reads the front
// matter. Text whose first line is not "---" has no front matter: Found
// is false and Body is all of it. The block ends at the first later line
// starting with "---", as pi reads it. An opening "---" without a closing
// one is an error, as is a block larger than MaxSize, YAML that cannot be
// read, a repeated key, or a block that is not "key: value" lines. Like
// Claude Code, a block YAML refuses is read again with its top-level
// values that hold YAML's special characters quoted ("description: Use
// when: ..." is the text).
func Parse(text string) (Doc, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return Doc{Body: text, BodyLine: 1}, nil
	}
	end := strings.Index("\n"+rest, "\n---")
	if end < 0 {
		if len(rest) > MaxSize {
			return Doc{}, errorf(1, "front matter is larger than %d KiB", MaxSize>>10)
		}
		e := errorf(1, `front matter opened here is not closed by a "---" line`)
		e.notClosed = true
		return Doc{}, e
	}
	block, bodyLine := "", 3
	if end > 0 {
		block = rest[:end-1]
		bodyLine += strings.Count(block, "\n") + 1
	}
	if len(block) > MaxSize {
		return Doc{}, errorf(1, "front matter is larger than %d KiB", MaxSize>>10)
	}
	_, body, _ := strings.Cut(rest[end:], "\n")
	block = printable(block)
	fields, err := parseYAML(block)
	if err != nil {
		if quoted := quoteSpecialValues(block); quoted != block {
			if f, qerr := parseYAML(quoted); qerr == nil {
				fields, err = f, nil
			}
		}
	}
	if err != nil {
		return Doc{}, err
	}
	return Doc{Found: true, Fields: fields, Body: body, BodyLine: bodyLine}, nil
}

// printable is block with what YAML may not hold raw replaced by U+FFFD,
// as pi's reader keeps going past it: bytes that are not UTF-8 (Node reads
// files so), and control characters other than tab and line breaks (C0,
// DEL, C1 but NEL), which are also not for a terminal or a prompt.
func printable(block string) string {
	block = strings.ToValidUTF8(block, "\uFFFD")
	bad := func(r rune) bool {
		return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7F && r <= 0x9F && r != 0x85 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF
	}
	if !strings.ContainsFunc(block, bad) {
		return block
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return '\uFFFD'
		}
		return r
	}, block)
}

// yamlLine finds the line number in a go-yaml error message.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?`) })

// parseYAML reads the block (which starts on the file's line 2) as one
// YAML document holding a map.
func parseYAML(block string) ([]Field, error) {
	if strings.TrimSpace(block) == "" {
		return nil, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(block)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // only comments
		}
		return nil, yamlError(err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(err)
		}
		return nil, errorf(more.Line+1, "front matter holds more than one YAML document: remove the \"...\" or \"---\" line inside it")
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	c := converter{}
	root := doc.Content[0]
	for root.Kind == yaml.AliasNode && root.Alias != nil {
		root = root.Alias
	}
	switch root.Kind {
	case yaml.MappingNode:
	case yaml.ScalarNode:
		if root.ShortTag() == nullTag {
			return nil, nil
		}
		return nil, errorf(root.Line+1, `front matter is not "key: value" lines: it is the text %s`, strconv.Quote(clip(root.Value)))
	default:
		return nil, errorf(root.Line+1, `front matter is not "key: value" lines: it is a list`)
	}
	v, err := c.value(root, 0)
	if err != nil {
		return nil, err
	}
	return v.Entries, nil
}

// yamlError turns go-yaml's error into an Error on the file's line.
func yamlError(err error) error {
	msg := err.Error()
	m := yamlLine().FindStringSubmatch(msg)
	if m == nil {
		return &Error{Msg: msg}
	}
	line := 0
	if m[1] != "" {
		n, _ := strconv.Atoi(m[1])
		line = n + 1
	}
	return &Error{Line: line, Msg: msg[len(m[0]):]}
}

// clip shortens s for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
