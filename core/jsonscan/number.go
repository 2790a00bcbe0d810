package jsonscan

import (
	"math"
	"strconv"
)

// Number reads a number and returns its text, which aliases the input.
// null reads as no text.
func (s *Scanner) Number() []byte {
	if s.Null() {
		return nil
	}
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		s.fail("expected a number")
		return nil
	}
	start := s.pos
	d, i := s.data, s.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		s.pos = i
		s.fail("invalid number")
		return nil
	}
	if i < len(d) && d[i] == '.' {
		if i = digits(d, i+1); d[i-1] == '.' {
			s.pos = i
			s.fail("invalid number")
			return nil
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if j := digits(d, i); j > i {
			i = j
		} else {
			s.pos = i
			s.fail("invalid number")
			return nil
		}
	}
	s.pos = i
	return d[start:i]
}

// digits returns the index of the first byte of d at or after i that is not
// a decimal digit.
func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// Int reads a number as encoding/json reads one into an int64: one with a
// fraction or an exponent, or out of range, is an error. null reads as 0.
func (s *Scanner) Int() int64 {
	start := s.pos
	text := s.Number()
	if n, ok := parseInt(text); ok || text == nil {
		return n
	}
	if n, err := strconv.ParseInt(string(text), 10, 64); err == nil {
		return n
	}
	s.pos = start
	s.fail("number " + string(text) + " is not a 64-bit integer")
	return 0
}

// LooseInt reads a number as an integer, leniently where Int fails: a
// fraction is dropped and a value out of range becomes the nearest int64.
// It suits counters in files other programs write. null reads as 0.
func (s *Scanner) LooseInt() int64 {
	text := s.Number()
	if n, ok := parseInt(text); ok || text == nil {
		return n
	}
	if n, err := strconv.ParseInt(string(text), 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(string(text), 64)
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// parseInt parses number text that is an integer of at most 18 digits, the
// common case, without strconv.
func parseInt(text []byte) (int64, bool) {
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(text) > len(digits) {
		n = -n
	}
	return n, true
}

// Float reads a number as encoding/json reads one into a float64: one out
// of range is an error. null reads as 0.
func (s *Scanner) Float() float64 {
	start := s.pos
	text := s.Number()
	if text == nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		s.pos = start
		s.fail("number " + string(text) + " is out of range")
		return 0
	}
	return f
}
