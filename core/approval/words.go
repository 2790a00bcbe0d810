package approval

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file turns shell words into the text they stand for, as the shell
// would remove quotes, and says whether that text is all there is to them.

// word is one shell word after quote removal.
type word struct {
	text string
	// plain says the word expands to exactly text: no parameter, command,
	// arithmetic, glob, brace or tilde expansion.
	plain bool
	// literalLen is how many bytes of text come before the first expansion.
	literalLen int
	// home says the only expansion is a leading ~ (`~/.bashrc`): text is
	// the path with it unexpanded.
	home bool
}

// fixed reports whether the word can be compared with a rule's word: it is
// plain, and does not look like an array subscript holding an expansion,
// which bash evaluates when it is used as a variable name (`printf -v
// 'a[$(cmd)]'`, `[[ -v ... ]]`, `read`).
func (w word) fixed() bool {
	return w.plain && !(strings.Contains(w.text, "[") && strings.ContainsAny(w.text, "$`"))
}

// resolve removes quotes from w, as the shell would, and says whether the
// result is plain.
func resolve(w *syntax.Word) word {
	var b strings.Builder
	plain, home, others := true, false, false
	literalLen := -1
	expansion := func() {
		plain, others = false, true
		if literalLen < 0 {
			literalLen = b.Len()
		}
	}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				expansion()
				home, others = true, false
			}
			if !unquoteLit(&b, p.Value) {
				plain, others = false, true
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				expansion()
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				expansion()
			}
			for _, inner := range p.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					unquoteDouble(&b, lit.Value)
				} else {
					expansion()
				}
			}
		default:
			expansion()
		}
	}
	if literalLen < 0 {
		literalLen = b.Len()
	}
	return word{text: b.String(), plain: plain, literalLen: literalLen, home: home && !others}
}

// unquoteLit writes an unquoted literal with its backslashes removed. It
// returns false if the literal holds an unescaped glob or brace expansion.
func unquoteLit(b *strings.Builder, s string) bool {
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?' || c == '[':
			plain = false
		case c == '{' && strings.ContainsAny(s[i:], ",.") && strings.Contains(s[i:], "}"):
			plain = false
		}
		b.WriteByte(c)
	}
	return plain
}

// unquoteDouble writes a literal from inside double quotes, where a backslash
// only escapes $, `, ", \ and newline.
func unquoteDouble(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
}
