// Package jsonscan reads and writes JSON by hand for cairn's hot paths:
// provider stream events (thousands per answer), session lines (up to
// megabytes each) and the messages they hold. encoding/json spends most of
// its time and allocations on reflection around the one or two strings that
// matter; a Scanner visits only what its caller asks for and allocates only
// the strings it returns.
//
// What it promises:
//   - A Scanner accepts exactly the JSON that json.Valid accepts, nesting
//     limit included, whatever its caller reads or skips.
//   - It reads what encoding/json reads: strings are unescaped with invalid
//     UTF-8 and lone surrogates turned into U+FFFD, numbers follow
//     strconv's rules for range, and null reads as the zero value, which is
//     what encoding/json leaves in a field that starts at its zero value.
//   - It never panics on any input.
//
// Object keys are matched exactly; encoding/json also matches them
// case-insensitively, and FieldMatch lets a fast path that defers to
// encoding/json spot the difference.
//
// AppendString writes a string literal as encoding/json does, except that
// it leaves <, > and & alone, as pi does.
package jsonscan

import (
	"bytes"
	"fmt"
	"iter"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest: encoding/json's
// limit, so that both accept and reject the same documents.
const MaxDepth = 10000

// Scanner reads one JSON value from a byte slice, validating as it goes.
// Its caller walks the value with Object and Array and reads each member
// with a reader of the expected kind (Str, Int, Bool, ...) or steps over it
// with Skip; every member must be consumed before the next.
//
// Errors are sticky, as with bufio.Scanner: after the first one every read
// returns a zero value and Err (or End) reports it, so a caller reads a
// whole shape and checks once. The zero Scanner reads an empty input;
// Reset points it at a value and keeps its buffer for unescaping.
type Scanner struct {
	data    []byte
	pos     int
	depth   int
	err     error
	scratch []byte // unescaped strings, reused
}

// Error is what a Scanner reports for input it does not accept: malformed
// JSON, or a value of another kind than the one asked for.
type Error struct {
	Offset int // byte offset in the input where reading stopped
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Kind is the kind of a JSON value.
type Kind byte

// The kinds Kind reports. Invalid means no value comes next: the input
// ended, holds a byte no value starts with, or an error came before.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Reset points the scanner at data, clearing any error.
func (s *Scanner) Reset(data []byte) {
	s.data, s.pos, s.depth, s.err = data, 0, 0, nil
}

// Err returns the first error, or nil.
func (s *Scanner) Err() error { return s.err }

// Offset returns the current byte offset in the input.
func (s *Scanner) Offset() int { return s.pos }

// Rewind moves back to an offset Offset returned outside any Object or
// Array loop still running, and clears the error, so a caller can read a
// value a second way (as raw JSON after it failed to decode, say).
func (s *Scanner) Rewind(offset int) {
	s.pos, s.err = offset, nil
}

// End reports the first error, or an error if anything but white space
// follows the value.
func (s *Scanner) End() error {
	if s.space(); s.err == nil && s.pos != len(s.data) {
		s.fail("unexpected data after the value")
	}
	return s.err
}

// fail records the first error and moves to the end of the input, so
// that every later read finds nothing.
func (s *Scanner) fail(msg string) {
	if s.err != nil {
		return
	}
	if s.pos >= len(s.data) {
		msg = "unexpected end of input"
	}
	s.err = &Error{Offset: s.pos, Msg: msg}
	s.pos = len(s.data)
}

func (s *Scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end of the
// input (where an error leaves the scanner).
func (s *Scanner) peek() byte {
	// Most tokens follow the one before directly: look before looping.
	if s.pos < len(s.data) && s.data[s.pos] > ' ' {
		return s.data[s.pos]
	}
	s.space()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// Kind reports the kind of the next value without consuming it.
func (s *Scanner) Kind() Kind {
	switch c := s.peek(); {
	case c == '"':
		return String
	case c == '{':
		return Object
	case c == '[':
		return Array
	case c == '-' || c >= '0' && c <= '9':
		return Number
	case c == 't' || c == 'f':
		return Bool
	case c == 'n':
		return Null
	}
	return Invalid
}

// Null consumes a null if one comes next and reports whether it did.
func (s *Scanner) Null() bool {
	return s.peek() == 'n' && s.literal("null")
}

func (s *Scanner) literal(word string) bool {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
		s.fail("invalid literal")
		return false
	}
	s.pos += len(word)
	return true
}

// Object returns the keys of the object that comes next, in order; after
// each key the scanner is at its value, which the loop body must consume.
// A key's bytes are valid until the next read. null is an object with no
// keys; any other kind is an error. A loop that stops early leaves the
// scanner inside the object.
func (s *Scanner) Object() iter.Seq[[]byte] {
	return func(yield func(key []byte) bool) {
		if s.Null() || !s.open('{', "expected an object") {
			return
		}
		s.members(yield)
		s.depth--
	}
}

func (s *Scanner) members(yield func(key []byte) bool) {
	if s.peek() == '}' {
		s.pos++
		return
	}
	for {
		if s.peek() != '"' {
			s.fail("expected a string key")
			return
		}
		s.pos++
		key, escaped, ascii := s.span()
		if escaped || !ascii && !utf8.Valid(key) {
			s.scratch = appendUnescaped(s.scratch[:0], key)
			key = s.scratch
		}
		if s.peek() != ':' {
			s.fail("expected a colon after the key")
			return
		}
		s.pos++
		if !yield(key) || s.err != nil {
			return
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.fail("expected a comma or the end of the object")
			return
		}
	}
}

// Array returns the indexes of the elements of the array that comes next;
// at each the scanner is at the element, which the loop body must consume.
// null is an empty array; any other kind is an error. A loop that stops
// early leaves the scanner inside the array.
func (s *Scanner) Array() iter.Seq[int] {
	return func(yield func(i int) bool) {
		if s.Null() || !s.open('[', "expected an array") {
			return
		}
		s.elements(yield)
		s.depth--
	}
}

func (s *Scanner) elements(yield func(i int) bool) {
	if s.peek() == ']' {
		s.pos++
		return
	}
	for i := 0; ; i++ {
		if !yield(i) || s.err != nil {
			return
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return
		default:
			s.fail("expected a comma or the end of the array")
			return
		}
	}
}

// open consumes the bracket c that starts an object or an array.
func (s *Scanner) open(c byte, msg string) bool {
	switch {
	case s.peek() != c:
		s.fail(msg)
		return false
	case s.depth >= MaxDepth:
		s.fail("nested too deeply")
		return false
	}
	s.pos++
	s.depth++
	return true
}

// Skip consumes the next value of any kind, validating it.
func (s *Scanner) Skip() {
	switch c := s.peek(); {
	case c == '"':
		s.pos++
		s.span()
	case c == '{':
		for range s.Object() {
			s.Skip()
		}
	case c == '[':
		for range s.Array() {
			s.Skip()
		}
	case c == '-' || c >= '0' && c <= '9':
		s.Number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail(fmt.Sprintf("invalid character %q looking for a value", c))
	}
}

// Raw consumes the next value of any kind and returns its JSON text, which
// aliases the input: copy it to keep it.
func (s *Scanner) Raw() []byte {
	s.space()
	start := s.pos
	s.Skip()
	if s.err != nil {
		return nil
	}
	return s.data[start:s.pos]
}

// Bool reads true or false; null reads as false.
func (s *Scanner) Bool() bool {
	switch s.peek() {
	case 't':
		return s.literal("true")
	case 'f':
		s.literal("false")
	case 'n':
		s.literal("null")
	default:
		s.fail("expected a boolean")
	}
	return false
}

// FieldMatch reports whether key equals one of names when case is ignored,
// as encoding/json matches keys to struct fields. A fast path that leaves
// unusual input to encoding/json uses it on keys it skips: a key that
// differs from a field's name only in case is read by encoding/json, so
// the fast path must not skip it.
func FieldMatch(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}
