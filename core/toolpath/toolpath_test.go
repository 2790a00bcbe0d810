package toolpath

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree builds a project with links in it beside a directory outside it:
//
//	root/outside/secret, root/outside/sub/
//	root/project/ (the working directory), file, dir/, .git/hooks/
//	  in -> file, out -> ../outside/secret, hook -> .git/hooks/pre-commit,
//	  dangling -> ../outside/new, subdir -> ../outside/sub, loop -> loop,
//	  abs -> <root>/outside
//	root/alias -> project
func tree(t testing.TB) (root string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"outside/sub", "project/dir", "project/.git/hooks"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"outside/secret", "project/file"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"project/in": "file", "project/out": "../outside/secret", "project/hook": ".git/hooks/pre-commit",
		"project/dangling": "../outside/new", "project/subdir": "../outside/sub", "project/loop": "loop",
		"project/abs": filepath.Join(root, "outside"), "alias": "project",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestResolve(t *testing.T) {
	root := tree(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	proj, outside := filepath.Join(root, "project"), filepath.Join(root, "outside")
	alias := filepath.Join(root, "alias")
	tests := []struct {
		name, p, dir, want string
	}{
		{"relative", "dir/x", proj, proj + "/dir/x"},
		{"mention", "@file", proj, proj + "/file"},
		{"mention of a control file", "@.cairn/approvals.json", proj, proj + "/.cairn/approvals.json"},
		{"home", "~/.bashrc", proj, filepath.Join(home, ".bashrc")},
		{"odd spaces", "dir/a\u00A0b", proj, proj + "/dir/a b"},
		{"cleaned", "dir/../file", proj, proj + "/file"},
		{"link inside the project", "in", proj, proj + "/file"},
		{"link out of the project", "out", proj, outside + "/secret"},
		{"link to a git hook not yet there", "hook", proj, proj + "/.git/hooks/pre-commit"},
		{"dangling link is followed to what a write creates", "dangling", proj, outside + "/new"},
		{"directory link in the middle", "subdir/x", proj, outside + "/sub/x"},
		{"dot-dot is read before links, as the tool opens it", "subdir/../file", proj, proj + "/file"},
		{"absolute link", "abs/secret", proj, outside + "/secret"},
		{"loop left as it is", "loop", proj, proj + "/loop"},
		{"project reached through a link keeps its spelling", "in", alias, alias + "/file"},
		{"outside through a linked project is the real path", "out", alias, outside + "/secret"},
		{"absolute path through the linked project", alias + "/out", proj, outside + "/secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Resolve(tt.p, tt.dir); got != tt.want {
				t.Errorf("Resolve(%q, %q) = %q, want %q", tt.p, tt.dir, got, tt.want)
			}
		})
	}
}

func TestResolveExistingTriesScreenshotSpellings(t *testing.T) {
	dir := t.TempDir()
	name := "Screenshot 10.00.00\u202FAM.png"
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ResolveExisting("Screenshot 10.00.00 AM.png", dir); got != filepath.Join(dir, name) {
		t.Fatalf("got %q", got)
	}
}

func TestWithin(t *testing.T) {
	tests := []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/a/b", "/", true}, {"/", "/a", false},
	}
	for _, tt := range tests {
		if got := Within(tt.p, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v", tt.p, tt.dir, got)
		}
	}
}

// FuzzResolve checks Resolve against the operating system: the path it
// returns is absolute and clean, passes through no link outside the
// project's own spelling, and names the file opening the path would.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"file", "in", "out", "hook", "dangling", "subdir/x", "subdir/../secret", "loop", "@in",
		"../alias/out", "abs/../project/in", "./dir/../../outside", "~", "a\u00A0b", "/"} {
		f.Add(s)
	}
	root := tree(f)
	proj := filepath.Join(root, "project")
	f.Fuzz(func(t *testing.T, p string) {
		if strings.ContainsRune(p, 0) {
			return
		}
		for _, dir := range []string{proj, filepath.Join(root, "alias")} {
			got := Resolve(p, dir)
			if !filepath.IsAbs(got) || filepath.Clean(got) != got {
				t.Fatalf("Resolve(%q, %q) = %q: not absolute and clean", p, dir, got)
			}
			// Past the project's own spelling, no existing component is a link.
			rest := got
			if Within(got, dir) {
				rest = strings.TrimPrefix(strings.TrimPrefix(got, dir), "/")
			}
			check := dir
			if !Within(got, dir) {
				check = "/"
			}
			for _, part := range split(rest) {
				check = filepath.Join(check, part)
				info, err := os.Lstat(check)
				if err != nil {
					break
				}
				if info.Mode()&os.ModeSymlink != 0 && !strings.HasSuffix(check, "/loop") {
					t.Fatalf("Resolve(%q, %q) = %q passes through the link %s", p, dir, got, check)
				}
			}
			// Where the path names an existing file, Resolve names the same one.
			want, errWant := os.Stat(Abs(p, dir))
			have, errHave := os.Stat(got)
			if errWant == nil && (errHave != nil || !os.SameFile(want, have)) {
				t.Fatalf("Resolve(%q, %q) = %q, which is not the file the path opens", p, dir, got)
			}
		}
	})
}
