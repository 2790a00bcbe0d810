package anthropic

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// scanDelta decodes a content_block_delta payload into ev without
// reflection: nearly every event of a long answer is one, and
// encoding/json spends most of its time and allocations on the shape
// around the one string that matters. It accepts the payloads the API sends
// (any key order, padding, escapes, extra fields) and validates what it
// skips; for anything else (another event type, a delta type it does not
// know, a number that is not a small integer, deep nesting) it reports
// false and the caller decodes with encoding/json, which handles the shape
// or explains why it is malformed. When it reports true, encoding/json
// would have produced the same fields.
func scanDelta(data []byte, ev *streamEvent) bool {
	s := jsonScanner{data: data}
	isDelta := false
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			raw, ok := s.rawString()
			isDelta = ok && string(raw) == "content_block_delta"
			ev.Type = "content_block_delta"
			return isDelta
		case "index":
			n, ok := s.smallInt()
			ev.Index = n
			return ok
		case "delta":
			return s.object(func(key []byte) bool { return s.deltaField(key, &ev.Delta) })
		}
		return !matchesField(key, eventFields) && s.skip(0)
	})
	if !ok || !isDelta {
		return false
	}
	s.space()
	return s.pos == len(s.data)
}

// jsonScanner reads JSON from data at pos. Every method returns false on
// input it does not accept, leaving the caller to fall back.
type jsonScanner struct {
	data []byte
	pos  int
}

// eventFields and deltaFields are the JSON names of streamEvent's and
// eventDelta's fields. encoding/json matches keys case-insensitively, so a
// key that differs from one of these only in case must fall back.
var (
	eventFields = []string{"type", "index", "message", "content_block", "delta", "usage", "error"}
	deltaFields = []string{"type", "text", "thinking", "partial_json", "signature", "stop_reason"}
)

func matchesField(key []byte, fields []string) bool {
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f)) {
			return true
		}
	}
	return false
}

// maxSkipDepth bounds nesting in skipped values; deeper input falls back
// to encoding/json rather than recursing without limit.
const maxSkipDepth = 32

// deltaField reads one field of the delta object. Delta types are
// interned so the common ones cost no allocation.
func (s *jsonScanner) deltaField(key []byte, d *eventDelta) bool {
	switch string(key) {
	case "type":
		raw, ok := s.rawString()
		if !ok {
			return false
		}
		switch string(raw) {
		case "text_delta":
			d.Type = "text_delta"
		case "thinking_delta":
			d.Type = "thinking_delta"
		case "input_json_delta":
			d.Type = "input_json_delta"
		case "signature_delta":
			d.Type = "signature_delta"
		default:
			return false
		}
		return true
	case "text":
		return s.stringInto(&d.Text)
	case "thinking":
		return s.stringInto(&d.Thinking)
	case "partial_json":
		return s.stringInto(&d.PartialJSON)
	case "signature":
		return s.stringInto(&d.Signature)
	case "stop_reason":
		return s.stringInto(&d.StopReason)
	}
	return !matchesField(key, deltaFields) && s.skip(1)
}

func (s *jsonScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *jsonScanner) next(c byte) bool {
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// object reads an object, calling field for each key with the scanner
// positioned at the value. Keys with escapes fall back.
func (s *jsonScanner) object(field func(key []byte) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.rawString()
		if !ok || !s.next(':') {
			return false
		}
		s.space()
		if !field(key) {
			return false
		}
		if s.next(',') {
			continue
		}
		return s.next('}')
	}
}

// rawString reads a string that has no escapes and returns its bytes.
func (s *jsonScanner) rawString() ([]byte, bool) {
	start, end, escaped, ok := s.stringToken()
	if !ok || escaped {
		return nil, false
	}
	return s.data[start+1 : end-1], true
}

// stringInto reads a string value into dst, or leaves null alone as
// encoding/json does.
func (s *jsonScanner) stringInto(dst *string) bool {
	if s.literal("null") {
		return true
	}
	start, end, escaped, ok := s.stringToken()
	if !ok {
		return false
	}
	body := s.data[start+1 : end-1]
	if !escaped && utf8.Valid(body) {
		*dst = string(body)
		return true
	}
	// Escapes and invalid UTF-8 are rare enough to hand to encoding/json.
	return json.Unmarshal(s.data[start:end], dst) == nil
}

// stringToken finds the string at pos, checking it has no raw control
// characters, and reports whether it contains escapes.
func (s *jsonScanner) stringToken() (start, end int, escaped, ok bool) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return 0, 0, false, false
	}
	start = s.pos
	for i := start + 1; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return start, s.pos, escaped, true
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			return 0, 0, false, false
		}
	}
	return 0, 0, false, false
}

// smallInt reads a non-negative integer of at most nine digits, the only
// block indexes worth a fast path.
func (s *jsonScanner) smallInt() (int, bool) {
	n, digits := 0, 0
	for i := s.pos; i < len(s.data) && s.data[i] >= '0' && s.data[i] <= '9'; i++ {
		n = n*10 + int(s.data[i]-'0')
		digits++
		if digits > 9 {
			return 0, false
		}
	}
	if digits == 0 || digits > 1 && s.data[s.pos] == '0' {
		return 0, false
	}
	s.pos += digits
	if s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	return n, true
}

func (s *jsonScanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	return false
}

// skip reads and validates any value the fast path does not use.
func (s *jsonScanner) skip(depth int) bool {
	if depth > maxSkipDepth || s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; {
	case c == '"':
		start, end, escaped, ok := s.stringToken()
		if ok && escaped {
			ok = json.Valid(s.data[start:end])
		}
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.skip(depth + 1) })
	case c == '[':
		s.pos++
		if s.next(']') {
			return true
		}
		for {
			s.space()
			if !s.skip(depth + 1) {
				return false
			}
			if s.next(',') {
				continue
			}
			return s.next(']')
		}
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return s.literal("true") || s.literal("false") || s.literal("null")
}

// number reads a JSON number per the grammar.
func (s *jsonScanner) number() bool {
	d := s.data
	i := s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	s.pos = i
	return true
}
