package prompts

import (
	"strconv"
	"strings"
)

// ParseArgs splits a command's arguments as a shell would, without
// expansions: spaces, tabs and newlines separate them; single or double
// quotes keep spaces inside one ("API compatibility" is one argument) and
// are removed.
func ParseArgs(s string) []string {
	var args []string
	var cur strings.Builder
	var quote rune
	started := false
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(c)
		case c == '"' || c == '\'':
			quote, started = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if started {
				args = append(args, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(c)
			started = true
		}
	}
	if started {
		args = append(args, cur.String())
	}
	return args
}

// Fill returns the body with its placeholders replaced by args, in one
// pass, so an argument that looks like a placeholder is sent as typed:
//
//	$1, $2, …        one argument ("" when missing)
//	$@, $ARGUMENTS   all of them, joined by spaces
//	${1:-default}    the argument, or default when it is missing or empty
//	${@:-default}    all of them, or default when there are none
//	${@:N}           the arguments from the Nth on
//	${@:N:L}         L arguments from the Nth on
//
// Anything else after a $ is left as it is.
func (t Template) Fill(args []string) string {
	body := t.Body
	var b strings.Builder
	b.Grow(len(body))
	for {
		i := strings.IndexByte(body, '$')
		if i < 0 {
			b.WriteString(body)
			return b.String()
		}
		b.WriteString(body[:i])
		text, n := placeholder(body[i:], args)
		if n == 0 {
			b.WriteByte('$')
			n = 1
		} else {
			b.WriteString(text)
		}
		body = body[i+n:]
	}
}

// placeholder reads the placeholder at the start of s (which starts with
// $) and returns its value and length, or a length of 0 when s does not
// start with one.
func placeholder(s string, args []string) (string, int) {
	all := strings.Join(args, " ")
	switch {
	case strings.HasPrefix(s, "$ARGUMENTS"):
		return all, len("$ARGUMENTS")
	case strings.HasPrefix(s, "$@"):
		return all, 2
	case strings.HasPrefix(s, "${"):
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0
		}
		v, ok := braced(s[2:end], args, all)
		if !ok {
			return "", 0
		}
		return v, end + 1
	}
	d := digits(s[1:])
	if d == 0 {
		return "", 0
	}
	n, _ := strconv.Atoi(s[1 : 1+d])
	return arg(args, n), 1 + d
}

// braced is the value of ${inner}.
func braced(inner string, args []string, all string) (string, bool) {
	if name, def, ok := strings.Cut(inner, ":-"); ok {
		var v string
		switch {
		case name == "@" || name == "ARGUMENTS":
			v = all
		case digits(name) == len(name) && name != "":
			n, _ := strconv.Atoi(name)
			v = arg(args, n)
		default:
			return "", false
		}
		if v == "" {
			v = def
		}
		return v, true
	}
	rest, ok := strings.CutPrefix(inner, "@:")
	if !ok {
		return "", false
	}
	startText, lengthText, hasLength := strings.Cut(rest, ":")
	if startText == "" || digits(startText) != len(startText) || (hasLength && (lengthText == "" || digits(lengthText) != len(lengthText))) {
		return "", false
	}
	start, _ := strconv.Atoi(startText)
	start = max(start-1, 0)
	start = min(start, len(args))
	end := len(args)
	if hasLength {
		l, _ := strconv.Atoi(lengthText)
		end = start + min(max(l, 0), len(args)-start)
	}
	return strings.Join(args[start:end], " "), true
}

// arg is the nth argument (from 1), or "".
func arg(args []string, n int) string {
	if n < 1 || n > len(args) {
		return ""
	}
	return args[n-1]
}

// digits counts the ASCII digits at the start of s.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
