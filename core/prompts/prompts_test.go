package prompts

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc ", []string{"a", "b", "c"}},
		{`"API compatibility" now`, []string{"API compatibility", "now"}},
		{`'a b'"c d"e f`, []string{"a bc de", "f"}},
		{`"" x`, []string{"", "x"}},
		{"one\ntwo", []string{"one", "two"}},
		{`"unclosed quote`, []string{"unclosed quote"}},
	} {
		if got := ParseArgs(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFill(t *testing.T) {
	args := []string{"a", "b c", "d"}
	for _, tc := range []struct {
		body string
		args []string
		want string
	}{
		{"$1 and $2 and $3", args, "a and b c and d"},
		{"$4 is missing", args, " is missing"},
		{"all: $@ / $ARGUMENTS", args, "all: a b c d / a b c d"},
		{"${1:-x} ${4:-fallback}", args, "a fallback"},
		{"${@:-nothing}", nil, "nothing"},
		{"${ARGUMENTS:-nothing}", args, "a b c d"},
		{"${@:2}", args, "b c d"},
		{"${@:2:1}", args, "b c"},
		{"${@:9}", args, ""},
		{"${@:0}", args, "a b c d"},
		{"${@:1:99999999999999999999999}", args, "a b c d"},
		{"costs $5.00, $ alone, ${HOME}, ${unclosed", nil, "costs .00, $ alone, ${HOME}, ${unclosed"},
		// One pass: an argument that looks like a placeholder stays as typed.
		{"$1 $2", []string{"$2", "x"}, "$2 x"},
		{"$@", []string{"${1:-y}"}, "${1:-y}"},
	} {
		if got := (Template{Body: tc.body}).Fill(tc.args); got != tc.want {
			t.Errorf("Fill(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	tmpl, err := Parse("review", "---\r\ndescription: \"Review staged changes\"\r\nargument-hint: \"[focus]\"\r\n---\r\nReview. Focus on ${1:-correctness}.\r\n")
	if err != nil || tmpl.Description != "Review staged changes" || tmpl.ArgumentHint != "[focus]" || tmpl.Body != "Review. Focus on ${1:-correctness}." {
		t.Errorf("front matter: %+v, %v", tmpl, err)
	}
	long := strings.Repeat("x", 70)
	for body, want := range map[string]string{
		"\n\n# Explain this\nmore":  "Explain this",
		long:                        strings.Repeat("x", 60) + "…",
		"---\n---\nno front matter": "no front matter",
		// YAML the old line reader could not read: a folded description.
		"---\ndescription: >\n  Review the\n  change\n---\nbody": "Review the change",
		// A description that is not a string is none, as in pi.
		"---\ndescription: 42\n---\nThe body": "The body",
		// An opening rule never closed is Markdown, all body.
		"---\n# Title\n": "---",
	} {
		got, err := Parse("t", body)
		if err != nil || got.Description != want {
			t.Errorf("description of %q = %q, %v; want %q", body, got.Description, err, want)
		}
	}
	if _, err := Parse("t", "---\ndescription: d\n- x\n---\nbody"); err == nil || !strings.Contains(err.Error(), "front matter: line 2") {
		t.Errorf("bad YAML: %v", err)
	}
}

// TestLoadSkipsBadFrontMatter: a template whose front matter YAML cannot
// read is skipped and said, as pi does; the others load.
func TestLoadSkipsBadFrontMatter(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "good.md", "---\ndescription: Good\n---\nok")
	write(t, dir, "bad.md", "---\ndescription: d\n- x\n---\nbody")
	ts, errs := LoadDir(dir, ScopeUser)
	if len(ts) != 1 || ts[0].Name != "good" || len(errs) != 1 || !strings.Contains(errs[0].Error(), "bad.md skipped: front matter: line 2") {
		t.Errorf("templates %+v, errors %v", ts, errs)
	}
}

func TestLoadUserAndProject(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, "review.md", "Review $1 (mine)")
	write(t, user, "notes.txt", "not a template")
	write(t, project, "review.md", "Review $1 (the repository's)")
	write(t, project, "deploy.md", "---\ndescription: Deploy\n---\nDeploy $@")
	if err := os.Mkdir(filepath.Join(project, "nested.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(project, "nested.md"), "deep.md", "only direct children load")

	ts, errs := Load(user, project)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, tm := range ts {
		got = append(got, tm.Name+":"+string(tm.Scope))
	}
	if want := []string{"deploy:project", "review:user"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %v, want %v", got, want)
	}
	if tm, _ := ts.Find("deploy"); tm.Path != filepath.Join(project, "deploy.md") || tm.Description != "Deploy" {
		t.Errorf("deploy: %+v", tm)
	}

	for _, tc := range []struct{ in, want string }{
		{`/review "the parser"`, "Review the parser (mine)"},
		{"/deploy staging now", "Deploy staging now"},
		{"/deploy", "Deploy "},
		{"/deploy\nwith a second line", "Deploy with a second line"},
		{"/unknown x", "/unknown x"},
		{"review x", "review x"},
		{"/home/me/file.go", "/home/me/file.go"},
	} {
		got, ok := ts.Expand(tc.in)
		if got != tc.want || ok != (got != tc.in) {
			t.Errorf("Expand(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestLoadMissingAndUnreadable(t *testing.T) {
	if ts, errs := Load(filepath.Join(t.TempDir(), "none"), ""); ts != nil || errs != nil {
		t.Errorf("missing dirs: %v, %v", ts, errs)
	}
	dir := t.TempDir()
	write(t, dir, "ok.md", "fine")
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "broken.md")); err != nil {
		t.Skip(err)
	}
	ts, errs := LoadDir(dir, ScopeUser)
	if len(ts) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.md") {
		t.Errorf("got %v, %v; want ok.md and an error naming broken.md", ts, errs)
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("---\ndescription: d\nargument-hint: '[x]'\n---\nbody $1")
	f.Add("---\n# rule\n")
	f.Add("plain text")
	f.Fuzz(func(t *testing.T, text string) {
		tm, err := Parse("t", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "front matter: ") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if tm.Body != strings.TrimSpace(tm.Body) {
			t.Fatalf("body not trimmed: %q", tm.Body)
		}
	})
}
