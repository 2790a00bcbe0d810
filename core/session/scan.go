package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is how deeply arrays and objects may nest, the same limit
// encoding/json enforces, so that both accept and reject the same lines.
const maxDepth = 10000

// scanner reads one JSON value from a byte slice. It validates as it goes
// (the grammar json.Valid accepts) and decodes only what its caller asks
// for, so a session line is walked once whether it is only indexed or fully
// decoded. It is far faster than encoding/json on long strings because it
// looks at eight bytes at a time.
type scanner struct {
	b       []byte
	i       int
	depth   int
	scratch []byte // reused buffer for unescaping strings
}

// syntaxError reports malformed JSON at a byte offset of the line.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

func (s *scanner) fail(msg string) error { return &syntaxError{off: s.i, msg: msg} }

// reset points the scanner at a new value, keeping its scratch buffer.
func (s *scanner) reset(b []byte) {
	s.b, s.i, s.depth = b, 0, 0
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// end checks that nothing but whitespace follows the value.
func (s *scanner) end() error {
	s.ws()
	if s.i != len(s.b) {
		return s.fail("unexpected data after the value")
	}
	return nil
}

// null consumes a null literal if one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && s.literal("null") == nil {
		return true
	}
	return false
}

func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return s.fail("invalid literal")
	}
	s.i += len(lit)
	return nil
}

// skip validates and steps over one value of any kind.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '"':
		_, _, err := s.stringSpan()
		return err
	case c == '{':
		return s.object(func([]byte) error { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.number()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == 0 && s.i >= len(s.b):
		return s.fail("unexpected end of line")
	default:
		return s.fail(fmt.Sprintf("invalid character %q", c))
	}
}

// raw steps over one value and returns its bytes (a sub-slice of the input:
// copy it to keep it).
func (s *scanner) raw() ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

// object walks an object, calling fn with each key (valid only during the
// call, as it may live in the scratch buffer) with the scanner positioned at
// the key's value; fn must consume the value.
func (s *scanner) object(fn func(key []byte) error) error {
	if s.peek() != '{' {
		return s.fail("expected an object")
	}
	if s.depth++; s.depth > maxDepth {
		return s.fail("nested too deeply")
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if s.peek() != '"' {
			return s.fail("expected a string key")
		}
		key, err := s.stringBytes()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return s.fail("expected a colon after the key")
		}
		s.i++
		if err := fn(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected a comma or the end of the object")
		}
	}
}

// array walks an array, calling fn with the scanner positioned at each
// element; fn must consume it.
func (s *scanner) array(fn func() error) error {
	if s.peek() != '[' {
		return s.fail("expected an array")
	}
	if s.depth++; s.depth > maxDepth {
		return s.fail("nested too deeply")
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if err := fn(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected a comma or the end of the array")
		}
	}
}

// number validates a number and returns its text.
func (s *scanner) number() ([]byte, error) {
	s.ws()
	start := s.i
	b := s.b
	i := s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		s.i = i
		return nil, s.fail("invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.i = i
			return nil, s.fail("invalid number")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.i = i
			return nil, s.fail("invalid number")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return b[start:i], nil
}

// integer reads an integer (null reads as 0). A number with a fraction or an
// exponent is truncated and one out of range is clamped, where
// encoding/json would fail: a session should open even if another writer
// was sloppy with a counter.
func (s *scanner) integer() (int64, error) {
	if s.null() {
		return 0, nil
	}
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, s.fail("expected a number")
	}
	text, err := s.number()
	if err != nil {
		return 0, err
	}
	if n, err := strconv.ParseInt(string(text), 10, 64); err == nil {
		return n, nil
	}
	f, _ := strconv.ParseFloat(string(text), 64)
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64, nil
	case f <= math.MinInt64:
		return math.MinInt64, nil
	}
	return int64(f), nil
}

// boolean reads true or false (null reads as false).
func (s *scanner) boolean() (bool, error) {
	switch s.peek() {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	case 'n':
		return false, s.literal("null")
	}
	return false, s.fail("expected a boolean")
}

// str reads a string (null reads as "") into a new Go string.
func (s *scanner) str() (string, error) {
	if s.null() {
		return "", nil
	}
	if s.peek() != '"' {
		return "", s.fail("expected a string")
	}
	b, err := s.stringBytes()
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// isString reports whether a string comes next.
func (s *scanner) isString() bool { return s.peek() == '"' }

// stringBytes reads a string and returns its decoded bytes, valid until the
// next call (they are either part of the input or the scratch buffer).
// Invalid UTF-8 becomes U+FFFD, as with encoding/json.
func (s *scanner) stringBytes() ([]byte, error) {
	start, simple, err := s.stringSpan()
	if err != nil {
		return nil, err
	}
	body := s.b[start : s.i-1]
	if simple && utf8.Valid(body) {
		return body, nil
	}
	s.scratch = unescape(s.scratch[:0], body)
	return s.scratch, nil
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// lessMask sets the high bit of the lowest byte of x that is below n
// (n <= 128); bits above the lowest one may be spurious.
func lessMask(x, n uint64) uint64 { return (x - lsb*n) &^ x & msb }

// specialMask flags the bytes a string scan must stop at: control
// characters, quotes and backslashes. Its lowest set bit is exact.
func specialMask(x uint64) uint64 {
	return lessMask(x, 0x20) | lessMask(x^(lsb*'"'), 1) | lessMask(x^(lsb*'\\'), 1)
}

// stringSpan validates the string starting at the current position, moves
// past its closing quote and returns where its body starts and whether the
// body has no escapes.
func (s *scanner) stringSpan() (start int, simple bool, err error) {
	b := s.b
	i := s.i + 1
	start = i
	simple = true
	for {
		// Eight bytes at a time, jumping straight to the first one that
		// needs a look.
		for i+8 <= len(b) {
			if m := specialMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			s.i = i
			return 0, false, s.fail("unterminated string")
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return start, simple, nil
		case c == '\\':
			simple = false
			if i+1 >= len(b) {
				s.i = i
				return 0, false, s.fail("unterminated string")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					s.i = i
					return 0, false, s.fail("invalid \\u escape")
				}
				i += 6
			default:
				s.i = i
				return 0, false, s.fail("invalid escape in string")
			}
		case c < 0x20:
			s.i = i
			return 0, false, s.fail("control character in string")
		default:
			i++
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// unescape appends the decoded form of a validated string body to dst,
// replacing invalid UTF-8 and lone surrogates with U+FFFD as encoding/json
// does.
func unescape(dst, body []byte) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		if c == '\\' {
			var r rune
			r, i = unescapeOne(body, i)
			dst = utf8.AppendRune(dst, r)
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, body[i:i+size]...)
			}
			i += size
			continue
		}
		j := asciiRunEnd(body, i+1)
		dst = append(dst, body[i:j]...)
		i = j
	}
	return dst
}

// asciiRunEnd returns the index of the first backslash or non-ASCII byte
// of b at or after i, or len(b).
func asciiRunEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := lessMask(x^(lsb*'\\'), 1) | x&msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && b[i] != '\\' && b[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// unescapeOne decodes the escape at body[i] (and the low half of a
// surrogate pair after it) and returns the rune and the index after it.
func unescapeOne(body []byte, i int) (rune, int) {
	switch body[i+1] {
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
	default: // '"', '\\', '/'
		return rune(body[i+1]), i + 2
	}
	r := hex4(body[i+2:])
	i += 6
	if !utf16.IsSurrogate(r) {
		return r, i
	}
	r2 := rune(-1)
	if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
		r2 = hex4(body[i+2:])
	}
	if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
		return dec, i + 6
	}
	return utf8.RuneError, i
}

// errNotObject is returned when a line holds valid JSON that is not an
// object.
var errNotObject = errors.New("not a JSON object")

// parseFloat converts validated number text; out-of-range values become
// infinities rather than errors.
func parseFloat(text []byte) float64 {
	f, _ := strconv.ParseFloat(string(text), 64)
	return f
}
