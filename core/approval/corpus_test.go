package approval

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// corpusProject makes a project laid out as a hostile repository might
// ship it: the project's own repository (.git), a bare repository
// vendor/lib.git whose configuration names a program for git to run, a
// nested repository sub/nested, and plain directories web and api.
func corpusProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		".git/config":              "[core]\n\tbare = false\n\thooksPath = .husky\n",
		".husky/pre-commit":        "#!/bin/sh\n",
		".git/objects/.keep":       "",
		".git/refs/heads/.keep":    "",
		"vendor/lib.git/HEAD":      "ref: refs/heads/main\n",
		"vendor/lib.git/config":    "[core]\n\tbare = true\n\tfsmonitor = touch /tmp/pwned\n",
		"vendor/lib.git/objects/x": "",
		"sub/nested/.git/HEAD":     "ref: refs/heads/main\n",
		"sub/nested/.git/config":   "[core]\n\tpager = touch /tmp/pwned\n",
		"web/package.json":         "{}\n",
		"api/package.json":         "{}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// corpusRunFiles are the files the corpus project's control files would
// name as something to run (trust.Project.Scripts), as cmd/cairn gives
// them to the gate: the scripts of hooks, of an extension, of an MCP
// server.
var corpusRunFiles = map[string]string{
	".claude/hooks/start.sh": "a script cairn runs as a hook of .claude/settings.json",
	"tools/start.sh":         "a script cairn runs as a hook of .cairn/settings.json",
	"tools/ext.js":           "a script cairn runs as an extension of .cairn/settings.json",
	"server.js":              "a script cairn runs as an MCP server of .mcp.json",
	"scripts/check.py":       "a script cairn runs as a hook of .claude/settings.json",
}

// corpusLine is one line of testdata/corpus/*.txt.
type corpusLine struct {
	where string // file:line
	class string
	rules []Rule
	line  string
}

// readCorpus reads testdata/corpus/name: tab-separated lines of (class,
// when withClass,) rules as specRules reads them, and a command line,
// Go-quoted when it starts with a double quote.
func readCorpus(t *testing.T, name string, withClass bool) []corpusLine {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	want := 2
	if withClass {
		want = 3
	}
	var out []corpusLine
	for i, text := range strings.Split(string(data), "\n") {
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := name + ":" + strconv.Itoa(i+1)
		fields := strings.Split(text, "\t")
		if len(fields) != want {
			t.Fatalf("%s: want %d tab-separated fields: %q", where, want, text)
		}
		c := corpusLine{where: where}
		if withClass {
			c.class, fields = fields[0], fields[1:]
		}
		if c.rules, err = specRules(fields[0]); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		c.line = fields[1]
		if strings.HasPrefix(c.line, `"`) {
			if c.line, err = strconv.Unquote(c.line); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
		out = append(out, c)
	}
	return out
}

// runsUnasked reports whether a gate for the project dir, with rules
// granted for the session, lets a bash call of line run without asking.
// When it asks, q is the question.
func runsUnasked(t *testing.T, dir string, rules []Rule, line string) (ran bool, q core.Question) {
	t.Helper()
	g := openGate(t, Config{Dir: dir, RunFiles: corpusRunFiles})
	g.remember(rules)
	ui := newFakeUI(pick(OptionDeny))
	d := g.Check(context.Background(), bashTool, bashCall(line), ui)
	if ui.asked() > 0 {
		return false, ui.lastSelect()
	}
	return d.Allow && d.By == ByRule, core.Question{}
}

// TestCorpusDangerousAsks checks that every line of the dangerous corpus,
// built per class of issue 24 (assignments riding on rules, shell options,
// operands that run code or write, working directories, network
// redirections), asks even after the rules granted before it.
func TestCorpusDangerousAsks(t *testing.T) {
	dir := corpusProject(t)
	lines := readCorpus(t, "dangerous.txt", true)
	perClass := map[string]int{}
	for _, c := range lines {
		perClass[c.class]++
		if ran, _ := runsUnasked(t, dir, c.rules, c.line); ran {
			t.Errorf("%s (%s): rules %v let %q run unasked", c.where, c.class, c.rules, c.line)
		}
	}
	if len(lines) < 300 {
		t.Errorf("only %d dangerous lines", len(lines))
	}
	for _, class := range []string{"env", "shellopt", "operands", "workdir", "network", "git", "runfiles"} {
		if perClass[class] < 20 {
			t.Errorf("class %s has %d lines, want at least 20", class, perClass[class])
		}
	}
}

// TestCorpusBenignRuns checks that the benign controls still run under the
// rules granted before them, so that closing the holes did not make rules
// useless.
func TestCorpusBenignRuns(t *testing.T) {
	dir := corpusProject(t)
	lines := readCorpus(t, "benign.txt", false)
	for _, c := range lines {
		if ran, q := runsUnasked(t, dir, c.rules, c.line); !ran {
			t.Errorf("%s: rules %v do not cover %q (asked %q: %s)", c.where, c.rules, c.line, q.Title, q.Message)
		}
	}
	if len(lines) < 30 {
		t.Errorf("only %d benign lines", len(lines))
	}
}
