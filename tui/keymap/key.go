package keymap

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// modifierOrder is the order Bubble Tea v2 prints modifiers in.
var modifierOrder = [...]string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// keyNames maps every accepted key name, lower-cased, to Bubble Tea's name.
// The left-hand spellings beyond Bubble Tea's own are pi's and common
// aliases.
var keyNames = func() map[string]string {
	m := map[string]string{
		"escape": "esc", "return": "enter", "pageup": "pgup", "pagedown": "pgdown",
		"page_up": "pgup", "page_down": "pgdown", "del": "delete", "ins": "insert",
		"spacebar": "space", "bs": "backspace",
	}
	for _, n := range []string{
		"enter", "tab", "backspace", "esc", "space", "up", "down", "left", "right",
		"begin", "find", "insert", "delete", "select", "pgup", "pgdown", "home", "end",
	} {
		m[n] = n
	}
	for i := 1; i <= 63; i++ {
		f := "f" + strconv.Itoa(i)
		m[f] = f
	}
	return m
}()

// ParseKey turns a key as a user writes it into the form Bubble Tea v2
// prints: "shift+ctrl+P" and "Ctrl+Shift+p" both become "ctrl+shift+p",
// "escape" becomes "esc", "pageUp" becomes "pgup". Modifier and key names are
// case-insensitive; a single character without ctrl or alt keeps its case,
// since "A" and "a" are different keys to type.
func ParseKey(s string) (string, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return "", fmt.Errorf("empty key")
	}
	var mods, base string
	switch {
	case in == "+":
		base = "+"
	case strings.HasSuffix(in, "++"):
		mods, base = in[:len(in)-2], "+"
	default:
		i := strings.LastIndexByte(in, '+')
		mods, base = in[:max(i, 0)], in[i+1:]
	}

	var have [len(modifierOrder)]bool
	if mods != "" {
		for _, m := range strings.Split(mods, "+") {
			idx := modifierIndex(strings.ToLower(strings.TrimSpace(m)))
			if idx < 0 {
				return "", fmt.Errorf("%q is not a key: unknown modifier %q (use ctrl, alt, shift, meta, hyper, super)", s, m)
			}
			if have[idx] {
				return "", fmt.Errorf("%q is not a key: %s given twice", s, modifierOrder[idx])
			}
			have[idx] = true
		}
	}

	key, ok := keyNames[strings.ToLower(base)]
	if !ok {
		r, size := utf8.DecodeRuneInString(base)
		if size == 0 || size != len(base) || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return "", fmt.Errorf("%q is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)", s)
		}
		key = base
		if have[0] || have[1] || have[2] {
			// Bubble Tea reports ctrl+A, alt+A and shift+A by the
			// unshifted key.
			key = strings.ToLower(base)
		}
	}

	var sb strings.Builder
	for i, m := range modifierOrder {
		if have[i] {
			sb.WriteString(m)
			sb.WriteByte('+')
		}
	}
	sb.WriteString(key)
	return sb.String(), nil
}

func modifierIndex(m string) int {
	switch m {
	case "control":
		m = "ctrl"
	case "option", "opt":
		m = "alt"
	}
	for i, name := range modifierOrder {
		if name == m {
			return i
		}
	}
	return -1
}

// displayKey writes a canonical key the way /hotkeys shows it, close to how
// pi's documentation writes keys: "ctrl+shift+p" becomes "Ctrl+Shift+P",
// "pgup" becomes "PgUp", "esc" becomes "Esc".
func displayKey(k string) string {
	parts := strings.Split(k, "+")
	if strings.HasSuffix(k, "++") || k == "+" {
		parts = append(strings.Split(strings.TrimSuffix(k, "++"), "+"), "+")
		if k == "+" {
			parts = []string{"+"}
		}
	}
	for i, p := range parts {
		switch {
		case p == "pgup":
			parts[i] = "PgUp"
		case p == "pgdown":
			parts[i] = "PgDn"
		case len(p) > 1 || (p >= "a" && p <= "z"):
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}
