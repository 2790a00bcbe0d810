package approval

import (
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file decides which variable assignments a command line may make
// and still be covered by a rule. Programs obey their environment as much
// as their arguments (`GO='touch x; true' make lint`, `TAR_OPTIONS=...`,
// `PYTEST_ADDOPTS=...`), and no list of the dangerous ones is ever
// complete, so a rule covers only the assignments it was granted with, plus
// the few on harmlessVariables. Variables that change which program runs
// (dangerousVariable) are never covered at all.

// assign is one variable assignment in force for a command: `NAME=value`
// before it, a NAME=value word of env, or an export (or plain assignment
// that may reach the environment) elsewhere in the line. A value that is
// not a literal, or that the line builds up (`X+=y`, arrays, `read X`), is
// not plain.
type assign struct {
	name  string
	value word
}

// text writes the assignment as shell: NAME=value, quoted as needed.
func (a assign) text() (string, error) {
	v, err := joinWords([]string{a.value.text})
	if err != nil {
		return "", err
	}
	if a.value.text == "" {
		v = ""
	}
	return a.name + "=" + v, nil
}

// harmlessVariables may be set on any covered command: they choose a
// language, time zone, terminal or colour, or ask for quieter or plainer
// output, and no program takes code, a file to load or a program to run
// from them. Their value must still be a plain literal of safeValueChars,
// so that it names nothing outside that purpose. LC_* are the locale
// categories.
var harmlessVariables = sync.OnceValue(func() map[string]bool {
	return set("LANG", "LANGUAGE", "TZ", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"TERM", "COLUMNS", "LINES", "CGO_ENABLED", "RUST_BACKTRACE", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
})

// safeValueChars are the bytes a harmless variable's value may hold: no
// shell syntax, no spaces, and no slash, which would make a locale or a
// terminal name a path; only TZ names zones with one (Europe/Paris), and
// ".." is refused on its own.
const safeValueChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:@+-"

// harmlessValues are variables harmless with the values listed only: a
// pager of cat prints, and git asks for no password.
var harmlessValues = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"GIT_PAGER": {"cat", ""}, "PAGER": {"cat", ""}, "MANPAGER": {"cat"}, "SYSTEMD_PAGER": {"cat", ""},
		"GIT_TERMINAL_PROMPT": {"0"},
	}
})

// harmless reports whether the assignment needs no rule: a variable on
// harmlessVariables (or a locale category, LC_*) set to a plain, short
// value of safeValueChars, or one of harmlessValues.
func harmless(a assign) bool {
	if values, ok := harmlessValues()[a.name]; ok {
		return a.value.fixed() && slices.Contains(values, a.value.text)
	}
	name := a.name
	if !harmlessVariables()[name] && !(strings.HasPrefix(name, "LC_") && len(name) > 3 && strings.ToUpper(name) == name) {
		return false
	}
	v := a.value
	if !v.fixed() || len(v.text) > 64 || strings.Contains(v.text, "..") {
		return false
	}
	for i := 0; i < len(v.text); i++ {
		if c := v.text[i]; strings.IndexByte(safeValueChars, c) < 0 && !(c == '/' && name == "TZ") {
			return false
		}
	}
	return true
}

// lowerCaseEnvironment are the lower-case names programs read from their
// environment (proxies for curl, git, pip, npm, wget); other lower-case
// names are shell variables by convention.
var lowerCaseEnvironment = sync.OnceValue(func() map[string]bool {
	return set("http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy")
})

// shellLocal reports whether a plain assignment to name (`f=x`, `for f in`)
// stays in the shell: the shell passes a variable to programs only when it
// is exported, and one already exported by whoever started cairn keeps
// being exported when the line assigns it. A name with no upper-case
// letter is taken to be the line's own variable, unless programs are known
// to read it (lowerCaseEnvironment).
func shellLocal(name string) bool {
	return strings.ToLower(name) == name && !lowerCaseEnvironment()[name]
}

// needsGrant reports whether an assignment must be named by the rule that
// covers a command: it is not harmless.
func needsGrant(a assign) bool { return !harmless(a) }

// grantedEnv returns the assignments of env that a rule must name, as
// NAME→value. ok is false when one of them cannot be named by any rule:
// its value is not a literal, or the name is set twice to different
// values.
func grantedEnv(env []assign) (m map[string]string, ok bool) {
	for _, a := range env {
		if !needsGrant(a) {
			continue
		}
		if !a.value.fixed() {
			return nil, false
		}
		if m == nil {
			m = map[string]string{}
		}
		if prev, seen := m[a.name]; seen && prev != a.value.text {
			return nil, false
		}
		m[a.name] = a.value.text
	}
	return m, true
}

// assignValue resolves the value of an assignment node: the literal it
// sets, or a word that is not plain when the shell builds it up (`X+=y`,
// arrays, subscripts) or the line does not show it (`export X`).
func assignValue(a *syntax.Assign) word {
	switch {
	case a.Naked || a.Append || a.Array != nil || a.Index != nil:
		return word{}
	case a.Value == nil:
		return word{plain: true}
	}
	return resolve(a.Value)
}
