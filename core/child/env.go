package child

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// Secret reports whether an environment variable's name says it holds a
// credential, the judgement every program cairn starts is given its
// environment by. The name is read case-insensitively, as words split at
// every character that is not a letter or digit: a word ending in KEY or
// TOKEN (OPENAI_API_KEY, AWS_ACCESS_KEY_ID, GH_TOKEN, npm_config__authToken),
// a word holding SECRET, PASSWORD, PASSWD or PASSPHRASE, a word CREDENTIAL,
// CREDENTIALS, CREDS, COOKIE, PAT or AUTHORIZATION, AUTH as the last word,
// or PWD after another word (MYSQL_PWD; PWD itself is the directory).
// Values are never read: a password inside DATABASE_URL is not seen.
func Secret(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool {
		return (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	})
	for i, w := range words {
		switch {
		case strings.HasSuffix(w, "KEY"), strings.HasSuffix(w, "KEYS"),
			strings.HasSuffix(w, "TOKEN"), strings.HasSuffix(w, "TOKENS"),
			strings.Contains(w, "SECRET"), strings.Contains(w, "PASSWORD"),
			strings.Contains(w, "PASSWD"), strings.Contains(w, "PASSPHRASE"):
			return true
		}
		switch w {
		case "CREDENTIAL", "CREDENTIALS", "CREDS", "COOKIE", "PAT", "AUTHORIZATION":
			return true
		case "AUTH":
			if i == len(words)-1 {
				return true
			}
		case "PWD":
			if i > 0 {
				return true
			}
		}
	}
	return false
}

// Inherit says which of cairn's environment variables a program's
// environment starts from.
type Inherit string

// The Inherit values, from the widest to the narrowest.
const (
	// InheritAll starts from all of them (the default).
	InheritAll Inherit = "all"
	// InheritCore starts from InheritedVars only.
	InheritCore Inherit = "core"
	// InheritNone starts from nothing.
	InheritNone Inherit = "none"
)

// rank orders Inherit values from the narrowest (0) to the widest; an
// unknown value ranks as the narrowest.
func (i Inherit) rank() int {
	switch i {
	case InheritAll, "":
		return 2
	case InheritCore:
		return 1
	}
	return 0
}

// EnvPolicy is how a command's environment is made from cairn's, the
// "shellEnvironment" setting:
//
//	"shellEnvironment": {"inherit": "all", "exclude": ["DATABASE_URL"],
//	                     "passthrough": ["GITHUB_TOKEN"], "set": {"CI": "1"}}
//
// A variable reaches the command when Inherit takes it, it is not a secret
// (cairn's own keys, or Secret by its name) and it matches no Exclude
// pattern; a variable matching a Passthrough pattern is taken whatever
// Inherit and Secret say, unless an Exclude pattern matches it. Set is
// applied last. Patterns are shell globs (*, ?, [...]) matched against the
// whole name, ignoring case.
type EnvPolicy struct {
	// Inherit is where the environment starts from; empty means all.
	Inherit Inherit `json:"inherit,omitempty"`
	// Exclude are patterns of variables never passed.
	Exclude []string `json:"exclude,omitempty"`
	// Passthrough are patterns of variables passed even when they look
	// like secrets or Inherit leaves them out.
	Passthrough []string `json:"passthrough,omitempty"`
	// Set are variables given to every command, over cairn's own.
	Set map[string]string `json:"set,omitempty"`
}

// Check says what in p cannot be used: an unknown Inherit, a pattern that
// is not a valid glob, or a Set name that is empty or holds '='.
func (p EnvPolicy) Check() error {
	var errs []error
	switch p.Inherit {
	case "", InheritAll, InheritCore, InheritNone:
	default:
		errs = append(errs, fmt.Errorf(`inherit: %q is not allowed: use "all", "core" or "none"`, p.Inherit))
	}
	for _, list := range []struct {
		key      string
		patterns []string
	}{{"exclude", p.Exclude}, {"passthrough", p.Passthrough}} {
		for _, pat := range list.patterns {
			if _, err := path.Match(pat, ""); err != nil || pat == "" {
				errs = append(errs, fmt.Errorf("%s: %q is not a valid pattern (use *, ? and [...] in a variable's name)", list.key, pat))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.Set)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			errs = append(errs, fmt.Errorf("set: %q is not a variable name", k))
		}
	}
	return errors.Join(errs...)
}

// Environ returns the environment a command starts with under p, made
// from environ ("NAME=value" entries, as os.Environ gives them). keys are
// the variables cairn itself reads credentials from (the model catalog's):
// they are dropped as secrets whatever their names.
func (p EnvPolicy) Environ(environ []string, keys []string) []string {
	out := make([]string, 0, len(environ)+len(p.Set))
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if _, set := p.Set[name]; set || !p.passes(name, keys) {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range slices.Sorted(maps.Keys(p.Set)) {
		out = append(out, k+"="+p.Set[k])
	}
	return out
}

// passes reports whether cairn's variable name reaches a command under p.
func (p EnvPolicy) passes(name string, keys []string) bool {
	if matchAny(p.Exclude, name) {
		return false
	}
	if matchAny(p.Passthrough, name) {
		return true
	}
	switch p.Inherit {
	case InheritAll, "":
	case InheritCore:
		if !slices.Contains(InheritedVars, name) {
			return false
		}
	default:
		// none, or a value Check refuses: the narrowest.
		return false
	}
	return !Secret(name) && !slices.Contains(keys, name)
}

// matchAny reports whether name matches one of the patterns, ignoring case.
func matchAny(patterns []string, name string) bool {
	upper := strings.ToUpper(name)
	for _, pat := range patterns {
		if ok, err := path.Match(strings.ToUpper(pat), upper); err == nil && ok {
			return true
		}
	}
	return false
}

// TightenEnv returns the policy in force when a project's setting lies over
// the person's own. A project can only narrow what commands get, since its
// files may come from anyone: the narrower Inherit of the two wins, its
// Exclude patterns are added, and its Passthrough and Set entries are
// dropped unless the person's own setting has them too. The dropped
// entries are returned so they can be reported.
func TightenEnv(user, project EnvPolicy) (EnvPolicy, []string) {
	out := EnvPolicy{Inherit: user.Inherit, Exclude: slices.Clone(user.Exclude),
		Passthrough: slices.Clone(user.Passthrough), Set: maps.Clone(user.Set)}
	if project.Inherit.rank() < out.Inherit.rank() {
		out.Inherit = project.Inherit
	}
	for _, e := range project.Exclude {
		if !slices.Contains(out.Exclude, e) {
			out.Exclude = append(out.Exclude, e)
		}
	}
	var dropped []string
	for _, pt := range project.Passthrough {
		if !slices.Contains(user.Passthrough, pt) {
			dropped = append(dropped, "passthrough "+pt)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(project.Set)) {
		if v, ok := user.Set[k]; !ok || v != project.Set[k] {
			dropped = append(dropped, "set "+k)
		}
	}
	return out, dropped
}
