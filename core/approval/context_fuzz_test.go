package approval

import (
	"strings"
	"testing"
)

// FuzzRuleContext checks what a rule never covers, whatever the line: the
// rules "Allow for this session" makes for a line do not cover it once the
// line runs in another directory, with an assignment exported before it,
// reading from the network, or under a shell option that turns words into
// assignments. It also checks that analysing a line for the question
// (commandReason) never panics.
func FuzzRuleContext(f *testing.F) {
	for _, s := range []string{
		"git status", "make lint -j4", "cd web && npm test", "FOO=1 make test", "LANG=C git log --oneline",
		"env -C web make lint", "(cd api; go test ./...)", "for f in a b; do git diff src/$f; done",
		"set -euo pipefail; go vet ./...", "bash -ec 'git status && go build ./...'", "uniq -c f | sort",
		"npm install lodash", "python3 -m pytest -q", "cat < input.txt", "if cd x; then make; fi; ls",
	} {
		f.Add(s)
	}
	for _, r := range readRulesTable(f) {
		f.Add(r.line)
	}
	g := &Gate{}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 2048 {
			return
		}
		_ = g.commandReason(line)
		made := commandRules("bash", line)
		if made == nil {
			return
		}
		set, err := compileAll(made)
		if err != nil || !set.coversCommand("bash", line) {
			t.Fatalf("rules %v made for %q do not cover it (%v)", made, line, err)
		}
		group := "{ " + line + "\n}"
		never := []string{
			group + " < /dev/tcp/h/1",
			"set -k; " + group,
			"set -a; " + group,
		}
		if q, err := joinWords([]string{line}); err == nil {
			never = append(never, "bash -k -c "+q, "sh -o keyword -c "+q)
		}
		if !strings.Contains(line, "ZZEVIL") {
			never = append(never, "export ZZEVIL=1; "+group, "ZZEVIL=1; "+group)
		}
		dirBound := false
		for _, r := range made {
			if r.Dir != "" {
				dirBound = false
				break
			}
			dirBound = dirBound || !dirFree(mustCompile(r).words)
		}
		if dirBound {
			never = append(never, "cd zz_elsewhere && "+group, "env -C zz_elsewhere bash -c "+mustQuote(line))
		}
		for _, other := range never {
			if set.coversCommand("bash", other) {
				t.Errorf("rules %v made for %q also cover %q", made, line, other)
			}
		}
	})
}

func mustQuote(s string) string {
	q, err := joinWords([]string{s})
	if err != nil {
		return "'" // a line that never parses: never covered
	}
	return q
}
