// Package frontmatter reads the front matter of a Markdown file: a block
// between a first line "---" and the next line "---" holding "key: value"
// lines, as skills (SKILL.md) and agent definitions use. It understands the
// part of YAML those files use: plain and quoted strings, block scalars
// ("|" and ">"), lists in block ("- a") and flow ("[a, b]") form,
// comma-separated lists ("a, b"), booleans, and one level of nested
// "key: value" maps. Anything else is an error naming its line, never a
// guess.
//
// The block is bounded (MaxSize); the caller bounds the file.
package frontmatter

import (
	"fmt"
	"strings"
)

// MaxSize bounds the front matter block, in bytes: a file whose block is
// larger, or whose opening "---" is not closed within that many bytes, is
// refused with ErrTooLarge's message.
const MaxSize = 64 << 10

// Error is a front matter that cannot be read, or a value of the wrong
// type: Line is the 1-based line of the file it is on.
type Error struct {
	// Line is the 1-based line number in the file.
	Line int
	// Msg says what is wrong and, where it helps, what would be right.
	Msg string
}

// Error returns "line N: what is wrong".
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Kind says what shape a value has.
type Kind int

// The kinds of value.
const (
	// Null is a key with nothing after it ("key:").
	Null Kind = iota
	// Scalar is a single string, quoted or not.
	Scalar
	// List is a block ("- a") or flow ("[a, b]") list of strings.
	List
	// Map is an indented block of "key: value" lines.
	Map
)

// Value is one key's value.
type Value struct {
	// Kind says which of the fields below holds the value.
	Kind Kind
	// Str is a Scalar's text, quotes and escapes removed.
	Str string
	// Quoted is true when a Scalar was written in quotes, so "true" is a
	// string and not a boolean.
	Quoted bool
	// Items holds a List's strings.
	Items []string
	// Entries holds a Map's keys and values, in file order.
	Entries []Field
}

// Field is one key of the front matter.
type Field struct {
	// Key is the key as written.
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
	// Body is the text after the closing "---" (all of it when Found is
	// false), with "\r\n" turned into "\n".
	Body string
	// BodyLine is the 1-based line of the file Body starts on.
	BodyLine int
}

// Parse splits text into its front matter and body and reads the front
// matter. Text that does not start with a "---" line has no front matter:
// Found is false and Body is all of it. An opening "---" without a
// closing one is an error, as is a block larger than MaxSize.
func Parse(text string) (Doc, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return Doc{Body: text, BodyLine: 1}, nil
	}
	var block []string
	line, size := 1, 0
	for {
		if rest == "" {
			return Doc{}, errorf(1, `front matter opened here is not closed by a "---" line`)
		}
		l, next, more := strings.Cut(rest, "\n")
		line++
		if t := strings.TrimRight(l, " \t"); t == "---" || t == "..." {
			rest = next
			break
		}
		if size += len(l) + 1; size > MaxSize {
			return Doc{}, errorf(1, "front matter is larger than %d KiB", MaxSize>>10)
		}
		block = append(block, l)
		if !more {
			return Doc{}, errorf(1, `front matter opened here is not closed by a "---" line`)
		}
		rest = next
	}
	fields, err := parseBlock(block, 2)
	if err != nil {
		return Doc{}, err
	}
	return Doc{Found: true, Fields: fields, Body: rest, BodyLine: line + 1}, nil
}
