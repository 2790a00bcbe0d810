package provider

import (
	"encoding/json"
	"strings"
)

// repairArguments mends tool-call argument text that is not valid JSON in
// the two ways pi 0.87 (pi-ai's parseStreamingJson) mends it without
// guessing at content: inside strings, raw control characters are escaped
// and a backslash before a character that is no JSON escape is doubled
// (pi's repairJson); and objects and arrays left open at the end, with
// every string closed and no value cut short, are closed. ok is false when
// neither gives valid JSON. Unlike pi, a text cut inside a string or a
// value is not completed: the call would run with a truncated path or
// command, so it is refused instead (the model is told and sends it again).
func repairArguments(raw string) (string, bool) {
	if json.Valid([]byte(raw)) {
		return raw, true
	}
	fixed := repairStrings(raw)
	if json.Valid([]byte(fixed)) {
		return fixed, true
	}
	closed, ok := closeOpen(fixed)
	if ok && json.Valid([]byte(closed)) {
		return closed, true
	}
	return raw, false
}

// validEscapes are the characters JSON allows after a backslash.
const validEscapes = `"\/bfnrtu`

// repairStrings escapes raw control characters inside string literals and
// doubles a backslash that starts no valid escape, as pi's repairJson does.
func repairStrings(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !inString {
			b.WriteByte(c)
			inString = c == '"'
			continue
		}
		switch {
		case c == '"':
			b.WriteByte(c)
			inString = false
		case c == '\\':
			if i+1 >= len(s) {
				b.WriteString(`\\`)
				continue
			}
			next := s[i+1]
			if next == 'u' && i+6 <= len(s) && isHex4(s[i+2:i+6]) {
				b.WriteString(s[i : i+6])
				i += 5
				continue
			}
			if next != 'u' && strings.IndexByte(validEscapes, next) >= 0 {
				b.WriteByte('\\')
				b.WriteByte(next)
				i++
				continue
			}
			b.WriteString(`\\`)
		case c < 0x20:
			b.WriteString(controlEscape(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex4(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return len(s) == 4
}

func controlEscape(c byte) string {
	switch c {
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	const hex = "0123456789abcdef"
	return `\u00` + string(hex[c>>4]) + string(hex[c&0xf])
}

// closeOpen appends the closers of the objects and arrays left open at the
// end of s. ok is false when there are none, when s ends inside a string,
// or when it does not end with a whole value (see endsWholeValue).
func closeOpen(s string) (string, bool) {
	var stack []byte
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return s, false
			}
			stack = stack[:len(stack)-1]
		}
	}
	if inString || len(stack) == 0 {
		return s, false
	}
	trimmed := strings.TrimRight(s, " \t\r\n")
	if !endsWholeValue(trimmed) {
		return s, false
	}
	var b strings.Builder
	b.WriteString(trimmed)
	for i := len(stack) - 1; i >= 0; i-- {
		b.WriteByte(stack[i])
	}
	return b.String(), true
}

// endsWholeValue reports whether s ends with a value that cannot have been
// cut short: a closed string, object or array, or true, false or null. A
// number may be the start of a longer one (12 of 125), and ",", ":" or "{"
// leave a value to come.
func endsWholeValue(s string) bool {
	switch {
	case s == "":
		return false
	case strings.HasSuffix(s, `"`) || strings.HasSuffix(s, "}") || strings.HasSuffix(s, "]"):
		return true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if rest, ok := strings.CutSuffix(s, lit); ok && rest != "" && strings.IndexByte(" \t\r\n:,[", rest[len(rest)-1]) >= 0 {
			return true
		}
	}
	return false
}
