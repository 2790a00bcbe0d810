package approval

import (
	"strings"
	"testing"
)

// dangerousOptions run code or write files for some program the table
// covers. Whatever the line, none of them may follow a prefix rule's words
// unless after `--`.
var dangerousOptions = []string{"-c", "-x", "--exec", "--eval", "-toolexec", "-exec", "-O", "--output", "-o",
	"--upload-pack", "--open-files-in-pager", "--ext-diff", "--textconv", "--compress-program", "-vettool"}

// harmlessHere are the dangerous-looking options that are harmless for one
// program or subcommand: git grep -c counts and -o prints only matches,
// git ls-files -c and -o list cached and other files, rg -x matches whole
// lines, pytest -x stops at the first failure and go's -x prints the
// commands it runs.
var harmlessHere = map[string]map[string]bool{
	"git grep":     set("-c", "-o"),
	"git ls-files": set("-c", "-o"),
	"git switch":   set("-c"),
	"sort":         set("-c"),
	"rg":           set("-c", "-o", "-x"),
	"go build":     set("-x"),
	"go test":      set("-x"),
	"go vet":       set("-x"),
	"go list":      set("-x"),
	"python -m":    set("-x"),
}

// dangerousMakeOptions make make read another makefile or directory.
var dangerousMakeOptions = []string{"-f", "-C", "-I", "-e", "--file", "--directory", "--include-dir", "-n"}

// dangerousWord reports whether w is, or starts with, a dangerous option
// (`--output=x`, `-Ovim`), or is a group of short options holding o or O
// for sort (`-uo`).
func dangerousWord(prog, w string) bool {
	for _, d := range dangerousOptions {
		if harmlessHere[prog][d] {
			continue
		}
		if w == d || strings.HasPrefix(w, d+"=") {
			return true
		}
	}
	if prog == "make" {
		for _, d := range dangerousMakeOptions {
			if strings.HasPrefix(w, d) {
				return true
			}
		}
	}
	switch {
	case strings.HasPrefix(w, "-O"):
		return true
	case prog == "sort" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--"):
		// Letters up to the first that takes a value (-k, -t, -S) are
		// options; -o writes a file and -T picks where temporary ones go.
		for _, l := range w[1:] {
			if strings.ContainsRune("ktS", l) {
				return false
			}
			if l == 'o' || l == 'T' {
				return true
			}
		}
	}
	return false
}

// FuzzRuleMatch checks the prefix matcher on arbitrary lines and one
// arbitrary extra rule: it never panics, a covered line never passes a
// dangerous option beyond a rule's words (before `--`), and the rules
// "Allow for this session" makes for a line always cover it.
func FuzzRuleMatch(f *testing.F) {
	for _, r := range readRulesTable(f) {
		f.Add(r.rules[0].Command, r.line)
	}
	base := prefix("git diff", "git grep", "git fetch", "git rebase", "make lint", "go test", "go build", "sort", "ls")
	f.Fuzz(func(t *testing.T, ruleText, line string) {
		rules := append(prefix(ruleText), base...)
		set, _ := compileAll(rules) // an invalid fuzzed rule is dropped
		_ = Rule{Tool: "bash", Command: ruleText}.String()
		covered := set.coversCommand("bash", line)
		if made := commandRules("bash", line); made != nil {
			madeSet, err := compileAll(made)
			if err != nil || !madeSet.coversCommand("bash", line) {
				t.Fatalf("rules %v made for %q do not cover it (%v)", made, line, err)
			}
			for _, r := range made {
				_ = r.String()
			}
		}
		if !covered {
			return
		}
		cmds, _ := parseCommands(line)
		for _, c := range cmds {
			for _, r := range set {
				if r.Exact || !r.matches(c) {
					continue
				}
				prog := ""
				if keys := programKeys(r.words); len(keys) > 0 {
					prog = keys[0]
					if len(keys) > 1 && harmlessHere[keys[1]] != nil {
						prog = keys[1]
					}
				}
				if allOptionsSafe()[prog] {
					continue
				}
				for _, w := range c.args[len(r.words):] {
					if w.text == "--" {
						break
					}
					if dangerousWord(prog, w.text) {
						t.Fatalf("rule %v covers %q, passing %q", r.Rule, line, w.text)
					}
				}
			}
		}
	})
}
