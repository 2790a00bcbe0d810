package piext

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSource(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Source
		bad  bool
	}{
		{in: "npm:pi-foo", want: Source{Kind: "npm", Name: "pi-foo"}},
		{in: "npm:@scope/pi-foo@1.2.3", want: Source{Kind: "npm", Name: "@scope/pi-foo", Version: "1.2.3"}},
		{in: "npm:@scope/pi-foo", want: Source{Kind: "npm", Name: "@scope/pi-foo"}},
		{in: "git:github.com/a/b@v1", want: Source{Kind: "git", Host: "github.com", Repo: "a/b", Ref: "v1"}},
		{in: "https://github.com/a/b.git", want: Source{Kind: "git", Host: "github.com", Repo: "a/b"}},
		{in: "git@github.com:a/b", want: Source{Kind: "git", Host: "github.com", Repo: "a/b"}},
		{in: "./local", want: Source{Kind: "local", Path: "./local"}},
		{in: "~/pkgs/x", want: Source{Kind: "local", Path: "~/pkgs/x"}},
		{in: "npm:../evil", bad: true},
		{in: "git:github.com/../x", bad: true},
		{in: "nonsense", bad: true},
	} {
		got, err := ParseSource(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("ParseSource(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

// FuzzParseSource: a source is refused or names a package without a
// path that leaves its install root.
func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"npm:pi-foo@1", "npm:@a/b", "git:h/a/b@r", "https://h/a/b", "./x", "~/y", "npm:", "git:/..", "a/../../b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src, err := ParseSource(s)
		if err != nil {
			return
		}
		root := "/root"
		if d, _ := src.installedPathFor(root); d != "" && !within(root, d) {
			t.Fatalf("%q installs at %s, outside %s", s, d, root)
		}
	})
}

// installedPathFor is where src would be installed under root.
func (src Source) installedPathFor(root string) (string, bool) {
	switch src.Kind {
	case "npm":
		return filepath.Join(NPMRoot(root), "node_modules", filepath.FromSlash(src.Name)), true
	case "git":
		return filepath.Join(root, "git", src.Host, filepath.FromSlash(src.Repo)), true
	}
	return "", false
}

// TestPackagesSayWhy: a source that is not installed says how to install
// it; a filter cairn does not apply is refused, not ignored.
func TestPackagesSayWhy(t *testing.T) {
	entries := Packages([]byte(`["npm:pi-nothere", {"source": "npm:pi-x", "extensions": ["a.ts"]}, "./missing"]`), []string{t.TempDir()}, t.TempDir(), "")
	if len(entries) != 3 {
		t.Fatalf("%+v", entries)
	}
	for i, want := range []string{"`cairn install npm:pi-nothere`", `"extensions" is not supported by cairn yet`, "no such file"} {
		if entries[i].Err == nil || !strings.Contains(entries[i].Err.Error(), want) {
			t.Errorf("entry %d: %v, want %q", i, entries[i].Err, want)
		}
	}
}

// TestInstalledPackageRuns: a package installed with npm (as `cairn
// install npm:NAME` installs it) and named in "packages" runs: its
// pi.extensions module's tool answers.
func TestInstalledPackageRuns(t *testing.T) {
	needNode(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// npm's own tarball of the fixture, installed offline as a registry
	// package would be.
	work := t.TempDir()
	fixture, _ := filepath.Abs("testdata/packages/pi-hello-pkg")
	pack := exec.CommandContext(ctx, npm, "pack", fixture, "--pack-destination", work)
	pack.Dir = work
	if out, err := pack.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	root := t.TempDir()
	if err := InstallNPM(ctx, npm, root, "pi-hello-pkg@file:"+filepath.Join(work, "pi-hello-pkg-1.0.0.tgz")); err != nil {
		t.Fatal(err)
	}
	entries := Packages([]byte(`["npm:pi-hello-pkg"]`), []string{t.TempDir(), root}, "", "")
	if len(entries) != 1 || entries[0].Err != nil || !strings.HasSuffix(entries[0].Path, filepath.Join("node_modules", "pi-hello-pkg", "src", "greet.ts")) {
		t.Fatalf("%+v", entries)
	}
	h := startHost(t, "print", entries[0].Path)
	if got := text(h.tool(t, "pkg_greet", `{"name": "Ann"}`)); got != "Hello from a package, Ann!" {
		t.Errorf("pkg_greet: %q", got)
	}
}
