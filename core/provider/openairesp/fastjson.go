package openairesp

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Delta events are nearly every event of a long answer, and encoding/json
// spends five allocations and most of the time on each one; the finished
// items of a large tool call repeat megabytes of arguments that it would
// scan four times. The functions here read the few fields we need with a
// strict hand-written scanner instead. They give up (ok false) on anything
// unusual (a malformed document, an unexpected type, invalid UTF-8, deep
// nesting), and the caller then decodes the event with encoding/json,
// which has the last word and reports errors. FuzzFastPaths checks that
// both always agree.

// maxSkipDepth bounds the nesting the scanner follows before handing the
// event to encoding/json.
const maxSkipDepth = 64

// deltaFields returns the output_index and delta of a delta event.
func deltaFields(data []byte) (index int, delta string, ok bool) {
	o := openObject(data)
	for o.next() {
		switch string(o.key) {
		case "delta":
			delta, ok = o.stringValue()
		case "output_index":
			index, ok = o.integer()
		default:
			ok = !nearMiss(o.key, "delta", "output_index") && o.skipValue(0)
		}
		if !ok {
			return 0, "", false
		}
	}
	return index, delta, o.valid()
}

// itemFields returns the output_index of an output_item event and the raw
// bytes of its item, without decoding the item.
func itemFields(data []byte) (index int, item []byte, ok bool) {
	o := openObject(data)
	for o.next() {
		switch string(o.key) {
		case "item":
			start := o.i
			ok = o.i < len(o.b) && o.b[o.i] == '{' && o.skipValue(0)
			item = o.b[start:o.i]
		case "output_index":
			index, ok = o.integer()
		default:
			ok = !nearMiss(o.key, "item", "output_index") && o.skipValue(0)
		}
		if !ok {
			return 0, nil, false
		}
	}
	return index, item, o.valid() && item != nil
}

// argumentsFields returns the output_index of a function_call_arguments.done
// event and its arguments, still encoded.
func argumentsFields(data []byte) (index int, args []byte, ok bool) {
	o := openObject(data)
	for o.next() {
		switch string(o.key) {
		case "arguments":
			args, ok = o.stringLiteral()
		case "output_index":
			index, ok = o.integer()
		default:
			ok = !nearMiss(o.key, "arguments", "output_index") && o.skipValue(0)
		}
		if !ok {
			return 0, nil, false
		}
	}
	return index, args, o.valid()
}

// callFields reads a function_call item's ids and name, and returns its
// arguments still encoded, so the megabytes a large call repeats here are
// scanned once and decoded only if the deltas did not carry them.
func callFields(data []byte) (item outputItem, args []byte, ok bool) {
	o := openObject(data)
	for o.next() {
		switch string(o.key) {
		case "type":
			item.Type, ok = o.stringValue()
		case "id":
			item.ID, ok = o.stringValue()
		case "call_id":
			item.CallID, ok = o.stringValue()
		case "name":
			item.Name, ok = o.stringValue()
		case "arguments":
			args, ok = o.stringLiteral()
		default:
			ok = !nearMiss(o.key, "type", "id", "call_id", "name", "arguments") && o.skipValue(0)
		}
		if !ok {
			return outputItem{}, nil, false
		}
	}
	return item, args, o.valid()
}

// decodeString decodes a JSON string literal found by the scanner.
func decodeString(lit []byte) (string, bool) {
	if len(lit) == 0 {
		return "", true
	}
	s := scanner{b: lit}
	v, ok := s.stringValue()
	return v, ok && s.end()
}

// nearMiss reports whether key matches one of names only when case is
// ignored: encoding/json would take it for that field, so the fast path
// must leave the event to encoding/json.
func nearMiss(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

// object iterates over the keys of one JSON object. After next returns
// true the scanner sits at the key's value, which the caller must consume.
type object struct {
	scanner
	key    []byte
	keys   int
	bad    bool
	closed bool
}

func openObject(data []byte) object {
	o := object{scanner: scanner{b: data}}
	o.space()
	o.bad = !o.eat('{')
	return o
}

// next moves to the next key. It returns false at the end of the object
// or at a syntax error; valid tells which.
func (o *object) next() bool {
	if o.bad || o.closed {
		return false
	}
	o.space()
	if o.eat('}') {
		o.closed = true
		return false
	}
	if o.keys > 0 {
		if !o.eat(',') {
			o.bad = true
			return false
		}
		o.space()
	}
	key, ok := o.plainString()
	if !ok {
		o.bad = true
		return false
	}
	o.space()
	if !o.eat(':') {
		o.bad = true
		return false
	}
	o.space()
	o.key = key
	o.keys++
	return true
}

// valid reports whether the input was exactly one well-formed object.
// Keys with escapes count as malformed here, for encoding/json to handle.
func (o *object) valid() bool {
	return !o.bad && o.closed && o.end()
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// plainString reads a string without escapes and returns its bytes.
func (s *scanner) plainString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// stringValue reads a string value, unescaping it. It refuses invalid
// UTF-8, which encoding/json would replace rather than keep.
func (s *scanner) stringValue() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	escaped := false
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if !utf8.Valid(raw) {
				return "", false
			}
			if !escaped {
				return string(raw), true
			}
			return unescape(raw)
		case c == '\\':
			escaped = true
			if !s.escape() {
				return "", false
			}
			continue
		case c < 0x20:
			return "", false
		}
		s.i++
	}
	return "", false
}

// stringLiteral moves past a string value and returns it still encoded.
func (s *scanner) stringLiteral() ([]byte, bool) {
	start := s.i
	if s.i >= len(s.b) || s.b[s.i] != '"' || !s.skipValue(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// escape checks one escape sequence at s.i and moves past it.
func (s *scanner) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		if _, ok := hex4(s.b[s.i+2 : s.i+6]); !ok {
			return false
		}
		s.i += 6
		return true
	}
	return false
}

func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
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

// unescape decodes the body of a valid JSON string with escapes, as
// encoding/json does: lone surrogates become U+FFFD.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch raw[i+1] {
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
			r, _ := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				hi := r
				r = utf8.RuneError
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					lo, _ := hex4(raw[i+2 : i+6])
					if dec := utf16.DecodeRune(hi, lo); dec != utf8.RuneError {
						r = dec
						i += 6
					}
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // '"', '\\', '/'
			out = append(out, raw[i+1])
		}
		i += 2
	}
	return string(out), true
}

// integer reads a JSON number that is an integer fitting an int.
func (s *scanner) integer() (int, bool) {
	neg := s.eat('-')
	start := s.i
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		if s.i-start >= 15 {
			return 0, false
		}
		n = n*10 + int(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// skipValue moves past one JSON value, checking its syntax.
func (s *scanner) skipValue(depth int) bool {
	if s.i >= len(s.b) || depth > maxSkipDepth {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		s.i++
		for s.i < len(s.b) {
			switch c := s.b[s.i]; {
			case c == '"':
				s.i++
				return true
			case c == '\\':
				if !s.escape() {
					return false
				}
				continue
			case c < 0x20:
				return false
			}
			s.i++
		}
		return false
	case c == '{':
		s.i++
		s.space()
		if s.eat('}') {
			return true
		}
		for {
			if s.i >= len(s.b) || s.b[s.i] != '"' || !s.skipValue(depth+1) {
				return false
			}
			s.space()
			if !s.eat(':') {
				return false
			}
			s.space()
			if !s.skipValue(depth + 1) {
				return false
			}
			s.space()
			if s.eat('}') {
				return true
			}
			if !s.eat(',') {
				return false
			}
			s.space()
		}
	case c == '[':
		s.i++
		s.space()
		if s.eat(']') {
			return true
		}
		for {
			if !s.skipValue(depth + 1) {
				return false
			}
			s.space()
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
			s.space()
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

func (s *scanner) literal(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// number moves past a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
