package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// searchTree is a small project with ignored files at several levels.
func searchTree(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":            "build/\n*.log\n/secret.txt\n!keep.log\n",
		".git/HEAD":             "ref: refs/heads/main TODO\n",
		".git/info/exclude":     "excluded.txt\n",
		".hidden.txt":           "TODO hidden\n",
		"README.md":             "# Project\nTODO: write docs\n",
		"main.go":               "package main\n\nfunc main() {\n\t// TODO start\n}\n",
		"app.log":               "TODO in a log\n",
		"keep.log":              "TODO kept log\n",
		"secret.txt":            "TODO secret\n",
		"excluded.txt":          "TODO excluded\n",
		"build/out.go":          "TODO built\n",
		"src/lib.go":            "package src\n// todo lower\n// TODO upper\n",
		"src/secret.txt":        "TODO not the root secret\n",
		"src/.gitignore":        "gen/\n",
		"src/gen/gen.go":        "TODO generated\n",
		"src/util/util_test.go": "TODO test\n",
		"docs/.ignore":          "draft.md\n",
		"docs/draft.md":         "TODO draft\n",
		"docs/guide.md":         "TODO guide\n",
		"data.bin":              "TODO\x00binary\n",
	})
	return dir
}

func TestGrep(t *testing.T) {
	dir := searchTree(t)
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"respects ignore files, finds hidden files, skips binary and .git", map[string]any{"pattern": "TODO"},
			".hidden.txt:1: TODO hidden\n" +
				"README.md:2: TODO: write docs\n" +
				"docs/guide.md:1: TODO guide\n" +
				"keep.log:1: TODO kept log\n" +
				"main.go:4: \t// TODO start\n" +
				"src/lib.go:3: // TODO upper\n" +
				"src/secret.txt:1: TODO not the root secret\n" +
				"src/util/util_test.go:1: TODO test"},
		{"ignore case", map[string]any{"pattern": "todo", "ignoreCase": true, "path": "src"},
			"lib.go:2: // todo lower\nlib.go:3: // TODO upper\nsecret.txt:1: TODO not the root secret\nutil/util_test.go:1: TODO test"},
		{"regex", map[string]any{"pattern": `^func \w+\(\)`}, "main.go:3: func main() {"},
		{"literal", map[string]any{"pattern": "main()", "literal": true}, "main.go:3: func main() {"},
		{"glob on names", map[string]any{"pattern": "TODO", "glob": "*.go"},
			"main.go:4: \t// TODO start\nsrc/lib.go:3: // TODO upper\nsrc/util/util_test.go:1: TODO test"},
		{"glob on paths", map[string]any{"pattern": "TODO", "glob": "src/**/*_test.go"}, "src/util/util_test.go:1: TODO test"},
		{"negated glob", map[string]any{"pattern": "TODO", "glob": "!*.md", "path": "docs"}, "No matches found"},
		{"a single file", map[string]any{"pattern": "TODO", "path": "src/lib.go"}, "lib.go:3: // TODO upper"},
		{"context", map[string]any{"pattern": "TODO start", "context": 1},
			"main.go-3- func main() {\nmain.go:4: \t// TODO start\nmain.go-5- }"},
		{"no match", map[string]any{"pattern": "nothing like this"}, "No matches found"},
		{"limit", map[string]any{"pattern": "TODO", "limit": 2},
			".hidden.txt:1: TODO hidden\nREADME.md:2: TODO: write docs\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]"},
	}
	grep := NewGrep(dir)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, grep, c.args)
			if got := text(res); got != c.want || res.IsError {
				t.Errorf("grep %v =\n%s\nwant\n%s", c.args, got, c.want)
			}
		})
	}
}

func TestGrepErrors(t *testing.T) {
	dir := t.TempDir()
	grep := NewGrep(dir)
	res := run(t, grep, map[string]any{"pattern": "(unclosed"})
	if !res.IsError || !strings.HasPrefix(text(res), "Invalid regular expression: missing closing )") {
		t.Errorf("bad regex = %q", text(res))
	}
	res = run(t, grep, map[string]any{"pattern": "x", "path": "nowhere"})
	if !res.IsError || text(res) != "Path not found: "+filepath.Join(dir, "nowhere") {
		t.Errorf("missing path = %q", text(res))
	}
}

func TestGrepLimitsAndDetails(t *testing.T) {
	dir := t.TempDir()
	var many strings.Builder
	for i := range 150 {
		fmt.Fprintf(&many, "match %d\n", i)
	}
	writeFiles(t, dir, map[string]string{
		"many.txt": many.String(),
		"long.txt": "match " + strings.Repeat("y", 600) + "\n",
		"wide.txt": strings.Repeat("match "+strings.Repeat("z", 400)+"\n", 200),
	})
	grep := NewGrep(dir)

	res := run(t, grep, map[string]any{"pattern": "match", "path": "many.txt"})
	d := details[GrepDetails](t, res)
	if d.MatchLimitReached != 100 || strings.Count(text(res), "\n") != 101 ||
		!strings.HasSuffix(text(res), "many.txt:100: match 99\n\n[100 matches limit reached. Use limit=200 for more, or refine pattern]") {
		t.Errorf("default limit: %+v %q", d, clip(text(res)))
	}

	res = run(t, grep, map[string]any{"pattern": "match", "path": "long.txt"})
	d = details[GrepDetails](t, res)
	want := "long.txt:1: match " + strings.Repeat("y", 494) + "... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]"
	if !d.LinesTruncated || text(res) != want {
		t.Errorf("long line: %+v %q", d, clip(text(res)))
	}

	res = run(t, grep, map[string]any{"pattern": "match", "path": "wide.txt", "limit": 500})
	d = details[GrepDetails](t, res)
	if d.Truncation == nil || d.Truncation.TruncatedBy != TruncatedByBytes || d.MatchLimitReached != 0 ||
		!strings.HasSuffix(text(res), "\n\n[50.0KB limit reached]") {
		t.Errorf("byte limit: %+v %q", d, clip(text(res)))
	}
}

// Rules in .gitignore files above the search directory, up to the top of the
// repository, apply too.
func TestGrepInSubdirectoryUsesParentIgnores(t *testing.T) {
	dir := searchTree(t)
	writeFiles(t, dir, map[string]string{"src/x.log": "TODO sub log\n"})
	res := run(t, NewGrep(filepath.Join(dir, "src")), map[string]any{"pattern": "TODO"})
	want := "lib.go:3: // TODO upper\nsecret.txt:1: TODO not the root secret\nutil/util_test.go:1: TODO test"
	if got := text(res); got != want {
		t.Errorf("grep in src =\n%s\nwant\n%s", got, want)
	}
}

func TestGrepCancelled(t *testing.T) {
	dir := searchTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runCtx(t, ctx, NewGrep(dir), map[string]any{"pattern": "TODO"}, nil)
	if !res.IsError || text(res) != "Operation aborted" {
		t.Errorf("cancelled grep = %q", text(res))
	}
}

func TestFind(t *testing.T) {
	dir := searchTree(t)
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"names at any depth", map[string]any{"pattern": "*.go"}, "main.go\nsrc/lib.go\nsrc/util/util_test.go"},
		{"paths", map[string]any{"pattern": "src/**/*.go"}, "src/lib.go\nsrc/util/util_test.go"},
		{"directories end in a slash", map[string]any{"pattern": "util*"}, "src/util/\nsrc/util/util_test.go"},
		{"hidden files, ignored left out", map[string]any{"pattern": "*.txt"}, ".hidden.txt\nsrc/secret.txt"},
		{"lower case matches any case", map[string]any{"pattern": "readme.md"}, "README.md"},
		{"capitals match exactly", map[string]any{"pattern": "Readme.md"}, "No files found matching pattern"},
		{"braces", map[string]any{"pattern": "*.{md,log}"}, "README.md\ndocs/guide.md\nkeep.log"},
		{"search path", map[string]any{"pattern": "*", "path": "docs"}, ".ignore\nguide.md"},
		{"limit", map[string]any{"pattern": "*.go", "limit": 1},
			"main.go\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]"},
	}
	find := NewFind(dir)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, find, c.args)
			if got := text(res); got != c.want || res.IsError {
				t.Errorf("find %v =\n%s\nwant\n%s", c.args, got, c.want)
			}
		})
	}
	res := run(t, find, map[string]any{"pattern": "*", "path": "main.go"})
	if !res.IsError || text(res) != "Not a directory: "+filepath.Join(dir, "main.go") {
		t.Errorf("find in a file = %q", text(res))
	}
	if d := details[FindDetails](t, run(t, find, map[string]any{"pattern": "*.go", "limit": 1})); d.ResultLimitReached != 1 {
		t.Errorf("details = %+v", d)
	}
}

func TestLs(t *testing.T) {
	dir := searchTree(t)
	if err := os.Symlink(filepath.Join(dir, "src"), filepath.Join(dir, "link-to-src")); err != nil {
		t.Fatal(err)
	}
	ls := NewLs(dir)
	// ls shows every entry, ignored ones included, as pi's does.
	want := ".git/\n.gitignore\n.hidden.txt\napp.log\nbuild/\ndata.bin\ndocs/\nexcluded.txt\nkeep.log\nlink-to-src/\nmain.go\nREADME.md\nsecret.txt\nsrc/"
	if got := text(run(t, ls, map[string]any{})); got != want {
		t.Errorf("ls =\n%s\nwant\n%s", got, want)
	}
	res := run(t, ls, map[string]any{"path": "src", "limit": 2})
	if got := text(res); got != ".gitignore\ngen/\n\n[2 entries limit reached. Use limit=4 for more]" {
		t.Errorf("ls src limit 2 = %q", got)
	}
	if d := details[LsDetails](t, res); d.EntryLimitReached != 2 {
		t.Errorf("details = %+v", d)
	}
	writeFiles(t, dir, map[string]string{"empty/.keep": ""})
	os.Remove(filepath.Join(dir, "empty/.keep"))
	if got := text(run(t, ls, map[string]any{"path": "empty"})); got != "(empty directory)" {
		t.Errorf("empty = %q", got)
	}
	for path, want := range map[string]string{"nowhere": "Path not found: ", "main.go": "Not a directory: "} {
		res := run(t, ls, map[string]any{"path": path})
		if !res.IsError || text(res) != want+filepath.Join(dir, path) {
			t.Errorf("ls %s = %q", path, text(res))
		}
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		pattern string
		opt     globOptions
		yes, no []string
	}{
		{"*.go", globOptions{}, []string{"a.go", ".go"}, []string{"a.go.txt", "d/a.go"}},
		{"a?c", globOptions{}, []string{"abc"}, []string{"ac", "a/c"}},
		{"[a-c]x", globOptions{}, []string{"bx"}, []string{"dx"}},
		{"[!a-c]x", globOptions{}, []string{"dx"}, []string{"ax", "/x"}},
		{"**/x", globOptions{}, []string{"x", "a/x", "a/b/x"}, []string{"ax"}},
		{"a/**", globOptions{}, []string{"a/b", "a/b/c"}, []string{"a", "b/a/c"}},
		{"a/**/b", globOptions{}, []string{"a/b", "a/x/y/b"}, []string{"ab"}},
		{"a**b", globOptions{}, []string{"ab", "axxb"}, []string{"a/b"}},
		{`\*.go`, globOptions{}, []string{"*.go"}, []string{"a.go"}},
		{"*.{go,md}", globOptions{braces: true}, []string{"a.go", "b.md"}, []string{"c.txt"}},
		{"{a,b}", globOptions{}, []string{"{a,b}"}, []string{"a"}},
		{"readme*", globOptions{fold: true}, []string{"README.md"}, []string{"READ.md"}},
		{"a.b", globOptions{}, []string{"a.b"}, []string{"axb"}},
	}
	for _, c := range cases {
		g, err := compileGlob(c.pattern, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		for _, s := range c.yes {
			if !g.match(s) {
				t.Errorf("%s should match %s", c.pattern, s)
			}
		}
		for _, s := range c.no {
			if g.match(s) {
				t.Errorf("%s should not match %s", c.pattern, s)
			}
		}
	}
	if _, err := compileGlob("{a,b", globOptions{braces: true}); err == nil {
		t.Error("unbalanced braces compiled")
	}
}

func TestIgnoreRules(t *testing.T) {
	l := &ignoreList{base: "/r", rules: parseIgnore([]byte(
		"# comment\n\n*.o\n!keep.o\n/top\nbuild/\ndocs/*.pdf\n**/deep/x\ntrailing   \nescaped\\ \n\\#hash\n"))}
	cases := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"/r/a.o", false, true},
		{"/r/sub/a.o", false, true},
		{"/r/keep.o", false, false},
		{"/r/top", false, true},
		{"/r/sub/top", false, false},
		{"/r/build", true, true},
		{"/r/build", false, false},
		{"/r/sub/build", true, true},
		{"/r/docs/a.pdf", false, true},
		{"/r/docs/sub/a.pdf", false, false},
		{"/r/a/b/deep/x", false, true},
		{"/r/trailing", false, true},
		{"/r/escaped ", false, true},
		{"/r/#hash", false, true},
		{"/r/main.go", false, false},
	}
	for _, c := range cases {
		if got := l.ignored(c.path, filepath.Base(c.path), c.isDir); got != c.want {
			t.Errorf("ignored(%s, dir=%v) = %v, want %v", c.path, c.isDir, got, c.want)
		}
	}
	child := &ignoreList{base: "/r/sub", rules: parseIgnore([]byte("!*.o\n")), parent: l}
	if child.ignored("/r/sub/a.o", "a.o", false) {
		t.Error("a deeper negation should re-include")
	}
}

func TestLineMatcher(t *testing.T) {
	cases := []struct {
		pattern    string
		ignoreCase bool
		required   string
		fold       bool
		data       string
		lines      []string
	}{
		{`func \w+\(`, false, "func ", false, "a\nfunc x(\nfunc\n", []string{"func x("}},
		{`^(foo|bar)baz$`, false, "baz", false, "foobaz\nxfoobaz\nbarbaz", []string{"foobaz", "barbaz"}},
		{`todo`, true, "todo", true, "ToDo\ntodo\nnothing\nTODO", []string{"ToDo", "todo", "TODO"}},
		{`a\s+b`, false, "a", false, "a\nb\na  b", []string{"a  b"}},
		{`x*`, false, "", false, "ab\n\ncd", []string{"ab", "", "cd"}},
	}
	for _, c := range cases {
		m, err := newLineMatcher(c.pattern, c.ignoreCase, false)
		if err != nil {
			t.Fatal(err)
		}
		if string(m.required) != c.required || m.fold != c.fold {
			t.Errorf("%s: required %q fold %v, want %q %v", c.pattern, m.required, m.fold, c.required, c.fold)
		}
		var got []string
		data := []byte(c.data)
		for pos := 0; pos < len(data); {
			ls, le := m.nextLine(data, pos)
			if ls < 0 {
				break
			}
			got = append(got, string(data[ls:le]))
			pos = le + 1
		}
		if strings.Join(got, "|") != strings.Join(c.lines, "|") {
			t.Errorf("%s on %q = %q, want %q", c.pattern, c.data, got, c.lines)
		}
	}
}

func TestIndexFold(t *testing.T) {
	for _, c := range []struct {
		s, lit string
		want   int
	}{
		{"xxTodo", "todo", 2}, {"tttTODO", "todo", 3}, {"tod", "todo", -1}, {"", "a", -1}, {"a-b A-B", "a-b", 0}, {"1x1X", "1x", 0},
	} {
		if got := indexFold([]byte(c.s), []byte(c.lit)); got != c.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", c.s, c.lit, got, c.want)
		}
	}
}
