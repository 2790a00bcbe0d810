package piext

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDiscoverAsPiDoes: a directory's *.ts and *.js files, and each
// subdirectory's package.json "pi.extensions" (existing ones), else
// index.ts, else index.js; other files, dot names and node_modules are
// not extensions; a subdirectory with no entry is reported.
func TestDiscoverAsPiDoes(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.ts", "b.js", "notes.md", ".hidden.ts", "node_modules/x/index.ts",
		"withindex/index.ts", "withindex/index.js", "jsindex/index.js", "helpers/util.ts"} {
		write(t, filepath.Join(dir, f), "")
	}
	write(t, filepath.Join(dir, "pkg", "package.json"), `{"name": "p", "pi": {"extensions": ["./src/one.ts", "./missing.ts", "two.js"]}}`)
	write(t, filepath.Join(dir, "pkg", "src", "one.ts"), "")
	write(t, filepath.Join(dir, "pkg", "two.js"), "")
	write(t, filepath.Join(dir, "pkg", "index.ts"), "")
	write(t, filepath.Join(dir, "nopi", "package.json"), `{"name": "n"}`)
	write(t, filepath.Join(dir, "nopi", "index.ts"), "")

	var got []string
	for _, e := range Discover(dir, "user") {
		rel, _ := filepath.Rel(dir, e.Path)
		if e.Err != nil {
			rel += " !" + e.Err.Error()[len(e.Path)+1:]
		}
		got = append(got, rel)
	}
	want := []string{"a.ts", "b.js", `helpers !has no index.ts, index.js or package.json "pi.extensions"`, "jsindex/index.js",
		"nopi/index.ts", "pkg/src/one.ts", "pkg/two.js", "withindex/index.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("Discover\n got %q\nwant %q", got, want)
	}
	if got := Discover(filepath.Join(dir, "none"), "user"); got != nil {
		t.Errorf("missing dir: %v", got)
	}
}

// TestManifestOutsideRefused: a package.json cannot name a module outside
// its package.
func TestManifestOutsideRefused(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "p", "package.json"), `{"pi": {"extensions": ["../../etc/evil.ts"]}}`)
	if _, err := Entries(filepath.Join(dir, "p")); err == nil || !strings.Contains(err.Error(), "outside the package") {
		t.Errorf("err %v", err)
	}
}

// TestFromPath: -e takes a module, a pi extension directory, or a
// directory of modules; a program or a cairn extension directory is not
// a pi extension.
func TestFromPath(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "x.ts"), "")
	write(t, filepath.Join(dir, "prog"), "#!/bin/sh")
	write(t, filepath.Join(dir, "ext", "index.ts"), "")
	write(t, filepath.Join(dir, "many", "a.ts"), "")
	write(t, filepath.Join(dir, "many", "b.ts"), "")
	write(t, filepath.Join(dir, "cairnext", "extension.json"), `{"command": "x"}`)
	for _, tc := range []struct {
		path string
		ok   bool
		want []string
	}{
		{"x.ts", true, []string{"x.ts"}},
		{"ext", true, []string{"ext/index.ts"}},
		{"many", true, []string{"many/a.ts", "many/b.ts"}},
		{"prog", false, nil},
		{"cairnext", false, nil},
		{"gone.ts", true, []string{"gone.ts"}},
	} {
		entries, ok := FromPath(tc.path, dir)
		var got []string
		for _, e := range entries {
			rel, _ := filepath.Rel(dir, e.Path)
			got = append(got, rel)
		}
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("FromPath(%s) = %q %v, want %q %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
	if e, _ := FromPath("gone.ts", dir); e[0].Err == nil {
		t.Error("a missing module is not an error")
	}
}

// TestHostConfig: good entries run in one host (node, host.mjs, the
// modules, deduplicated); bad ones are failed extensions of their own.
func TestHostConfig(t *testing.T) {
	cache := t.TempDir()
	configs := Host([]Entry{
		{Path: "/p/a.ts", Source: "project"},
		{Path: "/p/b", Source: "user", Err: os.ErrNotExist},
		{Path: "/p/a.ts", Source: "path"},
		{Path: "/p/c.js", Source: "path"},
	}, Options{CacheDir: cache, Cwd: "/work", LookPath: func(string) (string, error) { return "/usr/bin/node", nil }})
	if len(configs) != 2 {
		t.Fatalf("%+v", configs)
	}
	c := configs[0]
	if c.Name != "pi" || c.Command != "/usr/bin/node" || c.Dir != "/work" || c.Err != nil ||
		!slices.Equal(c.Args[1:], []string{"/p/a.ts", "/p/c.js"}) || !strings.HasPrefix(c.Args[0], cache) {
		t.Errorf("host %+v", c)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(c.Args[0]), "jiti", "lib", "jiti.mjs")); err != nil {
		t.Errorf("jiti not installed: %v", err)
	}
	if configs[1].Name != "pi:b" || configs[1].Err == nil {
		t.Errorf("bad entry %+v", configs[1])
	}
	// A second install finds the first.
	again, err := Install(cache)
	if err != nil || again != c.Args[0] {
		t.Errorf("Install again = %q, %v", again, err)
	}
}

// FuzzEntries: any package.json yields entries inside the package or an
// error, never a panic.
func FuzzEntries(f *testing.F) {
	f.Add(`{"pi": {"extensions": ["./a.ts"]}}`)
	f.Add(`{"pi": {"extensions": ["../x.ts", "/etc/passwd"]}}`)
	f.Add(`{"pi": null}`)
	f.Add(`{"pi": {"extensions": [1, {}]}}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, manifest string) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "package.json"), manifest)
		write(t, filepath.Join(dir, "a.ts"), "")
		entries, err := Entries(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !within(dir, e) {
				t.Fatalf("entry %s outside %s", e, dir)
			}
		}
	})
}
