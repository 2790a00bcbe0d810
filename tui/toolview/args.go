package toolview

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/escape"
)

// args are a call's arguments by name, read from JSON that may still be
// arriving.
type args map[string]json.RawMessage

// parseArgs reads the top-level fields of a call's arguments. Incomplete
// JSON is completed first (see completeJSON), so a string still being
// streamed is read as far as it has come. Anything unreadable gives no
// fields.
func parseArgs(raw []byte) args {
	var a args
	if err := json.Unmarshal(completeJSON(raw), &a); err != nil {
		return nil
	}
	return a
}

// str returns a string argument for display, or "" when it is missing or
// not a string. The model wrote it, so its control characters come back as
// visible escapes (escape.VisibleLines): drawn raw, ESC [8m would hide the
// rest of a command and \r would let its end overwrite its start.
func (a args) str(name string) string {
	var s string
	if v, ok := a[name]; ok && json.Unmarshal(v, &s) == nil {
		return escape.VisibleLines(s)
	}
	return ""
}

// has reports whether the argument is present and not null.
func (a args) has(name string) bool {
	v, ok := a[name]
	return ok && string(v) != "null"
}

// num returns a numeric argument, accepting numbers written as strings as
// the tools do, and whether it was there.
func (a args) num(name string) (float64, bool) {
	v, ok := a[name]
	if !ok {
		return 0, false
	}
	s := strings.Trim(string(v), `" `)
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// flag returns a boolean argument, accepting "true" as the tools do.
func (a args) flag(name string) bool {
	v, ok := a[name]
	return ok && strings.Trim(string(v), `" `) == "true"
}

// completeJSON returns JSON cut short by streaming as the longest prefix of
// it that can be closed into valid JSON, closed: an unfinished string value
// is ended where it has got to, a key without its value is dropped, open
// objects and arrays are closed. Valid JSON is returned as it is; input
// with nothing usable gives nil.
func completeJSON(raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || json.Valid(raw) {
		return raw
	}
	var c completer
	c.scan(raw)
	if c.cut < 0 {
		return nil
	}
	if c.quote {
		// Streaming may have split a character; keep only whole ones.
		for k := 0; k < 3 && c.cut > 0; k++ {
			if r, size := utf8.DecodeLastRune(raw[:c.cut]); r != utf8.RuneError || size != 1 {
				break
			}
			c.cut--
		}
	}
	out := make([]byte, 0, c.cut+len(c.closers)+1)
	out = append(out, raw[:c.cut]...)
	if c.quote {
		out = append(out, '"')
	}
	out = append(out, c.closers...)
	if !json.Valid(out) {
		return nil
	}
	return out
}

// Where the scan of a container stands.
const (
	wantKey   = iota // in an object, before a key
	wantColon        // in an object, after a key
	wantValue        // in an object after a colon, or in an array before a value
	afterValue
)

// frame is one open object or array.
type frame struct {
	open  byte // '{' or '['
	state int
}

// completer finds the last point of a JSON text at which it can be closed.
type completer struct {
	stack   []frame
	cut     int    // bytes of the input to keep; -1 for none
	quote   bool   // whether a string must be closed at cut
	closers []byte // what closes the containers open at cut
}

// checkpoint records that the input up to pos, with a closing quote when
// quote is set, can be closed by closing the open containers.
func (c *completer) checkpoint(pos int, quote bool) {
	c.cut, c.quote = pos, quote
	c.closers = c.closers[:0]
	for i := len(c.stack) - 1; i >= 0; i-- {
		if c.stack[i].open == '{' {
			c.closers = append(c.closers, '}')
		} else {
			c.closers = append(c.closers, ']')
		}
	}
}

// expectsValue reports whether a value may start here.
func (c *completer) expectsValue() bool {
	if len(c.stack) == 0 {
		return c.cut < 0
	}
	return c.stack[len(c.stack)-1].state == wantValue
}

// valueDone moves the innermost container past a value that ended at pos.
func (c *completer) valueDone(pos int) {
	if len(c.stack) > 0 {
		c.stack[len(c.stack)-1].state = afterValue
	}
	c.checkpoint(pos, false)
}

// scan walks raw, checkpointing every place it could be closed, and stops at
// its end or at the first byte that cannot continue valid JSON.
func (c *completer) scan(raw []byte) {
	c.cut = -1
	for i := 0; i < len(raw); {
		ch := raw[i]
		var top *frame
		if len(c.stack) > 0 {
			top = &c.stack[len(c.stack)-1]
		}
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
		case ch == '{' || ch == '[':
			if !c.expectsValue() {
				return
			}
			state := wantValue
			if ch == '{' {
				state = wantKey
			}
			c.stack = append(c.stack, frame{ch, state})
			i++
			c.checkpoint(i, false)
		case ch == '}' || ch == ']':
			if top == nil || (ch == '}') != (top.open == '{') ||
				(top.state != afterValue && top.state != wantKey && !(top.open == '[' && top.state == wantValue)) {
				return
			}
			c.stack = c.stack[:len(c.stack)-1]
			i++
			c.valueDone(i)
		case ch == ',':
			if top == nil || top.state != afterValue {
				return
			}
			top.state = wantValue
			if top.open == '{' {
				top.state = wantKey
			}
			i++
		case ch == ':':
			if top == nil || top.state != wantColon {
				return
			}
			top.state = wantValue
			i++
		case ch == '"':
			key := top != nil && top.state == wantKey
			if !key && !c.expectsValue() {
				return
			}
			end, safe := stringEnd(raw, i)
			if end < 0 {
				// The string is cut off; a value can be closed where the
				// last whole character ends, a key cannot.
				if !key {
					c.checkpoint(safe, true)
				}
				return
			}
			i = end
			if key {
				top.state = wantColon
			} else {
				c.valueDone(i)
			}
		default:
			if !c.expectsValue() {
				return
			}
			j := i
			for j < len(raw) && strings.IndexByte("+-.0123456789eEtrufalsn", raw[j]) >= 0 {
				j++
			}
			// A number running to the end may still be growing; a literal
			// that is whole cannot.
			if j == i || !json.Valid(raw[i:j]) || (j == len(raw) && raw[i] != 't' && raw[i] != 'f' && raw[i] != 'n') {
				return
			}
			i = j
			c.valueDone(i)
		}
	}
}

// stringEnd returns the index just past the string starting with the quote
// at raw[start], or -1 when the input ends first, along with the index after
// the last complete character (before any unfinished escape).
func stringEnd(raw []byte, start int) (end, safe int) {
	i := start + 1
	for i < len(raw) {
		switch raw[i] {
		case '"':
			return i + 1, i
		case '\\':
			n := 2
			if i+1 < len(raw) && raw[i+1] == 'u' {
				n = 6
			}
			if i+n > len(raw) {
				return -1, i
			}
			i += n
		default:
			i++
		}
	}
	return -1, i
}
