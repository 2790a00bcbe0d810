package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// Str reads a string into a new Go string; null reads as "".
func (s *Scanner) Str() string {
	body, plain := s.str()
	if plain {
		return string(body)
	}
	if cap(s.scratch) < len(body) {
		// Unescaping shortens all but invalid UTF-8: one allocation,
		// not a doubling series, for a long text.
		s.scratch = make([]byte, 0, len(body))
	}
	s.scratch = appendUnescaped(s.scratch[:0], body)
	return string(s.scratch)
}

// StrBytes reads a string and returns its unescaped bytes without
// allocating: they alias the input or the scanner's buffer, and are valid
// until the next read. null reads as no bytes.
func (s *Scanner) StrBytes() []byte {
	body, plain := s.str()
	if plain {
		return body
	}
	s.scratch = appendUnescaped(s.scratch[:0], body)
	return s.scratch
}

// str reads a string and returns its body between the quotes, and whether
// that body is already the string: no escapes and valid UTF-8. After an
// error or a null it returns no body, plainly.
func (s *Scanner) str() (body []byte, plain bool) {
	switch s.peek() {
	case '"':
	case 'n':
		s.literal("null")
		return nil, true
	default:
		s.fail("expected a string")
		return nil, true
	}
	s.pos++
	body, escaped, ascii := s.span()
	if s.err != nil {
		return nil, true
	}
	return body, !escaped && (ascii || utf8.Valid(body))
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// lessMask sets the high bit of the lowest byte of x that is below n
// (n <= 128); bits above the lowest one may be spurious.
func lessMask(x, n uint64) uint64 { return (x - lsb*n) &^ x & msb }

// specialMask flags the bytes a string scan must stop at: control
// characters, quotes and backslashes. Only its lowest set bit is exact.
func specialMask(x uint64) uint64 {
	return lessMask(x, 0x20) | lessMask(x^(lsb*'"'), 1) | lessMask(x^(lsb*'\\'), 1)
}

// span validates the body of the string whose opening quote is just
// behind the scanner, moves past its closing quote and returns the body,
// whether it holds escapes, and whether it is surely all ASCII (false
// means it may not be).
func (s *Scanner) span() (body []byte, escaped, ascii bool) {
	b := s.data
	start, i := s.pos, s.pos
	// high gathers the bytes looked at, some past the string's end too,
	// which is cheaper than masking them off and only costs a false "may
	// not be ASCII".
	var high uint64
	for {
		// Eight bytes at a time, straight to the first that needs a look.
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			high |= x
			if m := specialMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			s.pos = i
			s.fail("unterminated string")
			return nil, false, false
		}
		switch c := b[i]; {
		case c == '"':
			s.pos = i + 1
			return b[start:i], escaped, high&msb == 0
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				s.pos = i + 1
				s.fail("unterminated string")
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(b[i+2:]); !ok {
					s.pos = i
					s.fail("invalid \\u escape in string")
					return nil, false, false
				}
				i += 6
			default:
				s.pos = i
				s.fail("invalid escape in string")
				return nil, false, false
			}
		case c < 0x20:
			s.pos = i
			s.fail("control character in string")
			return nil, false, false
		default:
			high |= uint64(c)
			i++
		}
	}
}

// hex4 decodes the four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendUnescaped appends the decoded form of a string body span
// validated to dst, turning invalid UTF-8 and lone surrogates into U+FFFD
// as encoding/json does.
func appendUnescaped(dst, body []byte) []byte {
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == '\\':
			var r rune
			r, i = unescapeOne(body, i)
			dst = utf8.AppendRune(dst, r)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, body[i:i+size]...)
			}
			i += size
		default:
			j := asciiRunEnd(body, i+1)
			dst = append(dst, body[i:j]...)
			i = j
		}
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

// unescapeOne decodes the escape at body[i], with the low half of a
// surrogate pair after it, and returns the rune and the index after it.
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
	r, _ := hex4(body[i+2:])
	i += 6
	if !utf16.IsSurrogate(r) {
		return r, i
	}
	if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
		if r2, ok := hex4(body[i+2:]); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return dec, i + 6
			}
		}
	}
	return utf8.RuneError, i
}

// SkimString moves past the string at the scanner's position looking only
// for its closing quote, and returns its JSON text, quotes included, which
// aliases the input. The body is not validated (escapes, control
// characters, UTF-8): it is for long strings kept as they are and
// validated when they are read (Str on a scanner over the returned text).
// It is several times faster than Skip on text with many escapes.
func (s *Scanner) SkimString() []byte {
	if s.peek() != '"' {
		s.fail("expected a string")
		return nil
	}
	b, start := s.data, s.pos
	q := stringEnd(b, start+1)
	if q < 0 {
		s.pos = len(b)
		s.fail("unterminated string")
		return nil
	}
	s.pos = q + 1
	return b[start : q+1]
}

// stringEnd returns the index of the quote that ends the string whose body
// starts at b[body], or -1: the first quote no odd run of backslashes
// escapes. Quotes are looked for with bytes.IndexByte's vector search
// while they are far apart, and eight bytes at a time, every quote of a
// word in one look, while they come often (a command's output full of
// escaped quotes has one every few dozen bytes, where a call per quote
// costs more than the looking).
func stringEnd(b []byte, body int) int {
	ends := func(q int) bool {
		k := q
		for k > body && b[k-1] == '\\' {
			k--
		}
		return (q-k)%2 == 0
	}
	for i := body; ; {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		if q := i + j; ends(q) {
			return q
		} else {
			i = q + 1
		}
		// Word by word until a stretch of words without a quote.
		for quiet := 0; i+8 <= len(b) && quiet < denseWords; i += 8 {
			m := zeroBytes(binary.LittleEndian.Uint64(b[i:]) ^ (lsb * '"'))
			if m == 0 {
				quiet++
				continue
			}
			quiet = 0
			for ; m != 0; m &= m - 1 {
				if q := i + bits.TrailingZeros64(m)>>3; ends(q) {
					return q
				}
			}
		}
	}
}

// denseWords is how many words without a quote send stringEnd back to the
// vector search.
const denseWords = 8

// zeroBytes sets the high bit of every byte of x that is zero, exactly.
func zeroBytes(x uint64) uint64 {
	const low7 = lsb * 0x7f
	return ^(((x & low7) + low7) | x | low7)
}
