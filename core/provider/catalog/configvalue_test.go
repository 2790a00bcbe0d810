package catalog

import (
	"errors"
	"strings"
	"testing"
)

// piConfigValues are pi 0.87.1's own answers: each input was given to
// resolveConfigValue (dist/core/resolve-config-value.js) with A=x, B_2=y
// and EMPTY set to "", and the results recorded; "<unresolved>" is pi's
// undefined.
var piConfigValues = [][2]string{
	{"plain", "plain"},
	{"OPENAI_API_KEY", "OPENAI_API_KEY"},
	{"$A", "x"},
	{"${A}", "x"},
	{"pre-$A-post", "pre-x-post"},
	{"$A$B_2", "xy"},
	{"${B_2}z", "yz"},
	{"$$A", "$A"},
	{"$!cmd", "!cmd"},
	{"$", "$"},
	{"a$", "a$"},
	{"$1A", "$1A"},
	{"${1A}", "${1A}"},
	{"${A", "${A"},
	{"${}", "${}"},
	{"$UNSET", "<unresolved>"},
	{"${UNSET}", "<unresolved>"},
	{"x$EMPTY", "<unresolved>"},
	{"$A.b", "x.b"},
	{"${A}${A}", "xx"},
	{"$-", "$-"},
	{"sk-$$", "sk-$"},
	{"!echo hi", "hi"},
	{"!false", "<unresolved>"},
	{"!printf ''", "<unresolved>"},
	{"! echo  spaced  ", "spaced"},
	{"$Ab", "<unresolved>"},
	{"${a-b}", "${a-b}"},
	{"€$A€", "€x€"},
}

func TestConfigValuesResolveAsPiDoes(t *testing.T) {
	vars := map[string]string{"A": "x", "B_2": "y", "EMPTY": ""}
	r := &configResolver{getenv: env(vars), run: runShell}
	for _, c := range piConfigValues {
		got, err := r.resolve(c[0], "the test value", false)
		if err != nil {
			got = "<unresolved>"
		}
		if got != c[1] {
			t.Errorf("%q resolved to %q (%v), pi gives %q", c[0], got, err, c[1])
		}
	}
}

func TestConfigValueErrorsNameTheVariable(t *testing.T) {
	r := &configResolver{getenv: env(nil), run: func(string) (string, error) { return "", errors.New("exit 1") }}
	_, err := r.resolve("$CROFAI_API_KEY", `API key for provider "crof"`, false)
	if err == nil || !strings.Contains(err.Error(), "CROFAI_API_KEY") {
		t.Fatalf("err = %v, want one naming CROFAI_API_KEY", err)
	}
	_, err = r.resolve("${A}-${B}", "the key", false)
	if err == nil || !strings.Contains(err.Error(), "A, B") {
		t.Fatalf("err = %v, want one naming A, B", err)
	}
	_, err = r.resolve("!pass show x", "the key", false)
	if err == nil || !strings.Contains(err.Error(), "pass show x") {
		t.Fatalf("err = %v, want one naming the command", err)
	}
}

// TestCommandValuesCachedOnlyWhenPiCachesThem: pi runs a models.json
// command each time a request needs the key, and an auth.json command once
// per process (a failure included).
func TestCommandValuesCachedOnlyWhenPiCachesThem(t *testing.T) {
	runs := 0
	r := &configResolver{getenv: env(nil), run: func(string) (string, error) {
		runs++
		if runs == 1 {
			return "", errors.New("exit 1")
		}
		return "k\n", nil
	}}
	for range 2 {
		if _, err := r.resolve("!x", "k", true); err == nil {
			t.Fatal("a cached failure resolved")
		}
	}
	if runs != 1 {
		t.Fatalf("cached command ran %d times, want 1", runs)
	}
	for range 2 {
		if v, err := r.resolve("!x", "k", false); err != nil || v != "k" {
			t.Fatalf("uncached = %q, %v", v, err)
		}
	}
	if runs != 3 {
		t.Fatalf("uncached command ran %d times in all, want 3", runs)
	}
}

// escapeConfigValue writes s so that it resolves to itself.
func escapeConfigValue(s string) string {
	s = strings.ReplaceAll(s, "$", "$$")
	if strings.HasPrefix(s, "!") {
		s = "$" + s
	}
	return s
}

func FuzzConfigValue(f *testing.F) {
	for _, c := range piConfigValues {
		f.Add(c[0])
	}
	f.Add("${A}${")
	f.Add("$${A}")
	f.Fuzz(func(t *testing.T, v string) {
		set := func(string) string { return "V" }
		cv := parseConfigValue(v)
		if cv.isCmd {
			if cv.command != v[1:] {
				t.Fatalf("command of %q = %q", v, cv.command)
			}
		} else {
			out, ok := cv.expand(set)
			if !ok || !cv.configured(set) {
				t.Fatalf("%q unresolved with every variable set", v)
			}
			if !strings.Contains(v, "$") && out != v {
				t.Fatalf("%q without a $ resolved to %q", v, out)
			}
			_, ok = cv.expand(env(nil))
			if ok != (len(cv.envNames()) == 0) || ok != cv.configured(env(nil)) {
				t.Fatalf("%q: resolved=%v with nothing set but reads %v", v, ok, cv.envNames())
			}
		}
		// Any text written with $ and a leading ! escaped comes back as is.
		back, ok := parseConfigValue(escapeConfigValue(v)).expand(env(nil))
		if !ok || back != v {
			t.Fatalf("escaped %q resolved to %q, %v", v, back, ok)
		}
	})
}
