package google

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner is a strict JSON reader over one event's bytes. A long answer is
// thousands of small chunks, and encoding/json spends more time and
// allocations per chunk than everything else put together; this reader
// visits only the fields cairn uses, validates everything it skips, and
// allocates only the strings it returns.
type scanner struct {
	data []byte
	pos  int
}

// maxDepth bounds nesting in skipped values, so hostile input cannot exhaust
// the stack.
const maxDepth = 512

var errEnd = errors.New("unexpected end of JSON input")

func (s *scanner) fail(what string) error {
	if s.pos >= len(s.data) {
		return errEnd
	}
	return fmt.Errorf("invalid JSON at offset %d: %s", s.pos, what)
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// null consumes a null literal if one is next; fields that are null count as
// absent, as in encoding/json.
func (s *scanner) null() bool {
	if s.peek() == 'n' && len(s.data)-s.pos >= 4 && string(s.data[s.pos:s.pos+4]) == "null" {
		s.pos += 4
		return true
	}
	return false
}

// object reads an object, calling field for each key with the scanner at
// the value; field must consume the value. A null object is empty.
func (s *scanner) object(field func(key []byte) error) error {
	if s.null() {
		return nil
	}
	if s.peek() != '{' {
		return s.fail("expected an object")
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if s.peek() != '"' {
			return s.fail("expected a key")
		}
		key, err := s.rawString()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return s.fail("expected ':'")
		}
		s.pos++
		if err := field(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// array reads an array, calling elem with the scanner at each element. A
// null array is empty.
func (s *scanner) array(elem func(i int) error) error {
	if s.null() {
		return nil
	}
	if s.peek() != '[' {
		return s.fail("expected an array")
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := elem(i); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// rawString reads a string and returns its bytes between the quotes when it
// has no escapes (the common case: no allocation), else its decoded bytes.
func (s *scanner) rawString() ([]byte, error) {
	s.ws()
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return nil, s.fail("expected a string")
	}
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		c := s.data[i]
		switch {
		case c == '"':
			s.pos = i + 1
			raw := s.data[start:i]
			if !utf8.Valid(raw) {
				return []byte(string([]rune(string(raw)))), nil
			}
			return raw, nil
		case c == '\\':
			return s.escapedString(start)
		case c < 0x20:
			s.pos = i
			return nil, s.fail("control character in string")
		}
	}
	s.pos = len(s.data)
	return nil, errEnd
}

// escapedString decodes a string with escapes, as encoding/json does:
// invalid UTF-8 and lone surrogates become U+FFFD.
func (s *scanner) escapedString(start int) ([]byte, error) {
	out := make([]byte, 0, 64)
	i := start
	for i < len(s.data) {
		c := s.data[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return out, nil
		case c < 0x20:
			s.pos = i
			return nil, s.fail("control character in string")
		case c == '\\':
			if i+1 >= len(s.data) {
				s.pos = len(s.data)
				return nil, errEnd
			}
			e := s.data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(s.data, i)
				if !ok {
					s.pos = i
					return nil, s.fail("bad \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(-1), false
					if i+6 <= len(s.data) && s.data[i] == '\\' && s.data[i+1] == 'u' {
						r2, ok2 = hex4(s.data, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				s.pos = i - 1
				return nil, s.fail("bad escape")
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(s.data[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	s.pos = len(s.data)
	return nil, errEnd
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// str reads a string value; null leaves dst unchanged.
func (s *scanner) str(dst *string) error {
	if s.null() {
		return nil
	}
	b, err := s.rawString()
	if err != nil {
		return err
	}
	*dst = string(b)
	return nil
}

// boolean reads true or false; null leaves dst unchanged.
func (s *scanner) boolean(dst *bool) error {
	if s.null() {
		return nil
	}
	rest := s.data[s.pos:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*dst = true
		s.pos += 4
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*dst = false
		s.pos += 5
	default:
		return s.fail("expected a boolean")
	}
	return nil
}

// integer reads a JSON integer into an int; null leaves dst unchanged.
func (s *scanner) integer(dst *int) error {
	if s.null() {
		return nil
	}
	start := s.pos
	if err := s.number(); err != nil {
		return err
	}
	v, err := strconv.Atoi(string(s.data[start:s.pos]))
	if err != nil {
		s.pos = start
		return s.fail("expected an integer")
	}
	*dst = v
	return nil
}

// number consumes a number with JSON's grammar.
func (s *scanner) number() error {
	s.ws()
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		s.pos = i
		return s.fail("expected a number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.pos = i
			return s.fail("expected a digit")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.pos = i
			return s.fail("expected a digit")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	s.pos = i
	return nil
}

// skip consumes and validates any value.
func (s *scanner) skip() error { return s.skipDepth(0) }

func (s *scanner) skipDepth(depth int) error {
	if depth > maxDepth {
		return s.fail("nested too deeply")
	}
	switch c := s.peek(); {
	case c == '{':
		return s.object(func([]byte) error { return s.skipDepth(depth + 1) })
	case c == '[':
		return s.array(func(int) error { return s.skipDepth(depth + 1) })
	case c == '"':
		_, err := s.rawString()
		return err
	case c == 't' || c == 'f':
		var b bool
		return s.boolean(&b)
	case c == 'n':
		if s.null() {
			return nil
		}
		return s.fail("expected null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return s.fail("expected a value")
}

// raw consumes a value and returns its bytes, which alias the input.
func (s *scanner) raw() ([]byte, error) {
	s.ws()
	start := s.pos
	if err := s.skip(); err != nil {
		return nil, err
	}
	return s.data[start:s.pos], nil
}

// end checks that nothing but space follows the top-level value.
func (s *scanner) end() error {
	if s.ws(); s.pos < len(s.data) {
		return s.fail("unexpected data after the value")
	}
	return nil
}
