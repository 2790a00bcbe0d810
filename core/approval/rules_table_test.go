package approval

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// tableRow is one line of testdata/rules_table.txt.
type tableRow struct {
	lineNo int
	allow  bool
	rules  []Rule
	line   string
}

// readRulesTable parses testdata/rules_table.txt; see its header for the
// format.
func readRulesTable(t testing.TB) []tableRow {
	t.Helper()
	data, err := os.ReadFile("testdata/rules_table.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []tableRow
	for i, text := range strings.Split(string(data), "\n") {
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 3 || fields[0] != "allow" && fields[0] != "ask" {
			t.Fatalf("rules_table.txt:%d: want outcome, rules and line separated by tabs: %q", i+1, text)
		}
		rules, err := specRules(fields[1])
		if err != nil {
			t.Fatalf("rules_table.txt:%d: %v", i+1, err)
		}
		rows = append(rows, tableRow{lineNo: i + 1, allow: fields[0] == "allow", rules: rules, line: fields[2]})
	}
	return rows
}

// specRules returns the bash rules a table's rules field names: specs
// separated by " ;; ", where `@line` is the rules "Allow for this session"
// makes for line (commandRules), `=cmd` an exact rule, anything else a
// prefix rule.
func specRules(field string) ([]Rule, error) {
	var rules []Rule
	for _, spec := range strings.Split(field, " ;; ") {
		switch {
		case strings.HasPrefix(spec, "@"):
			made := commandRules("bash", spec[1:])
			if made == nil {
				return nil, fmt.Errorf("%q makes no rule", spec[1:])
			}
			rules = append(rules, made...)
		case strings.HasPrefix(spec, "="):
			rules = append(rules, exact(spec[1:]))
		default:
			rules = append(rules, prefix(spec)...)
		}
	}
	return rules, nil
}

// TestRulesTable checks every line of testdata/rules_table.txt: the
// variants of the security issue and other smuggling attempts ask, safe
// variants of an allowed command do not.
func TestRulesTable(t *testing.T) {
	rows := readRulesTable(t)
	allow := 0
	for _, r := range rows {
		if r.allow {
			allow++
		}
		set := mustCompileAll(t, r.rules)
		if got := set.coversCommand("bash", r.line); got != r.allow {
			t.Errorf("rules_table.txt:%d: rules %v, line %q: allowed = %v, want %v", r.lineNo, r.rules, r.line, got, r.allow)
		}
	}
	if len(rows) < 200 || allow < 50 || len(rows)-allow < 100 {
		t.Fatalf("table has %d rows, %d allow: too few", len(rows), allow)
	}
}

// TestRuleStringSaysWhatIsAllowed checks that the text a front end shows
// for a rule names what it covers beyond its words.
func TestRuleStringSaysWhatIsAllowed(t *testing.T) {
	tests := []struct {
		line string
		want string
	}{
		{"git diff HEAD", "bash: git diff (plus safe options and operands)"},
		{"make lint", "bash: make lint (plus safe options)"},
		{"npm run build", "bash: npm run build (plus safe options)"},
		{"ls -la", "bash: ls (plus any options and operands)"},
		{"git diff --output=f", "bash: git diff '--output=f' (exactly)"},
		{"strace ls", "bash: strace ls (exactly)"},
		{"rm -rf build", "bash: rm -rf build (exactly)"},
	}
	for _, tt := range tests {
		rules := commandRules("bash", tt.line)
		if len(rules) != 1 || rules[0].String() != tt.want {
			t.Errorf("rules for %q: %v, want one: %s", tt.line, rules, tt.want)
		}
	}
	if got := (Rule{Tool: "edit", Path: "."}).String(); got != "edit: any file in the project" {
		t.Errorf("path rule: %q", got)
	}
}
