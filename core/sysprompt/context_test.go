package sysprompt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/regfile"
)

// tree creates files (path relative to a fresh directory -> content; a
// content of "<dir>" makes a directory) and returns the directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		path := filepath.Join(root, rel)
		if content == "<dir>" {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// rel returns the paths of files relative to root, for readable failures.
func rel(t *testing.T, root string, files []ContextFile) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		r, err := filepath.Rel(root, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(r)+"="+f.Content)
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestContextFilesFromCairnDirThenRepoRootDownToCwd(t *testing.T) {
	root := tree(t, map[string]string{
		"home/.cairn/AGENTS.md":      "user",
		"work/AGENTS.md":             "above the repository",
		"work/repo/.git":             "<dir>",
		"work/repo/AGENTS.md":        "repo agents",
		"work/repo/CLAUDE.md":        "repo claude",
		"work/repo/sub/CLAUDE.md":    "sub claude",
		"work/repo/sub/deep/x.go":    "package x",
		"work/repo/other/AGENTS.md":  "not on the way",
		"work/repo/sub/deep/.cairn/": "<dir>",
	})
	files, err := LoadContextFiles(filepath.Join(root, "home/.cairn"), filepath.Join(root, "work/repo/sub/deep"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"home/.cairn/AGENTS.md=user",
		"work/repo/AGENTS.md=repo agents",
		"work/repo/sub/CLAUDE.md=sub claude",
	}
	if got := rel(t, root, files); !equal(got, want) {
		t.Errorf("context files =\n %q\nwant\n %q", got, want)
	}
	for _, f := range files {
		if !filepath.IsAbs(f.Path) {
			t.Errorf("path %s is not absolute", f.Path)
		}
	}
}

func TestContextFilesGitFileMarksWorktreeRoot(t *testing.T) {
	root := tree(t, map[string]string{
		"AGENTS.md":    "above",
		"wt/.git":      "gitdir: /elsewhere/.git/worktrees/wt\n",
		"wt/AGENTS.md": "worktree",
	})
	files, err := LoadContextFiles("", filepath.Join(root, "wt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, root, files), []string{"wt/AGENTS.md=worktree"}; !equal(got, want) {
		t.Errorf("context files = %q, want %q", got, want)
	}
}

func TestContextFilesOutsideRepositoryOnlyCwd(t *testing.T) {
	root := tree(t, map[string]string{
		"AGENTS.md":       "parent",
		"cwd/CLAUDE.md":   "here",
		"cwd/child/x.txt": "",
	})
	files, err := LoadContextFiles("", filepath.Join(root, "cwd"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, root, files), []string{"cwd/CLAUDE.md=here"}; !equal(got, want) {
		t.Errorf("context files = %q, want %q", got, want)
	}
}

func TestContextFileReachedTwiceIsIncludedOnce(t *testing.T) {
	root := tree(t, map[string]string{
		".git":      "<dir>",
		"AGENTS.md": "once",
	})
	files, err := LoadContextFiles(root, root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, root, files), []string{"AGENTS.md=once"}; !equal(got, want) {
		t.Errorf("context files = %q, want %q", got, want)
	}
}

func TestUnreadableContextFileIsSkippedAndReported(t *testing.T) {
	root := tree(t, map[string]string{
		".git":      "<dir>",
		"CLAUDE.md": "fallback",
		"sub/x":     "",
	})
	// A symbolic link to itself cannot be opened, even by root.
	if err := os.Symlink("AGENTS.md", filepath.Join(root, "AGENTS.md")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	// A directory named AGENTS.md is not a context file and no error.
	if err := os.Mkdir(filepath.Join(root, "sub", "AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := LoadContextFiles("", filepath.Join(root, "sub"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "AGENTS.md")) {
		t.Errorf("error = %v, want one naming the unreadable AGENTS.md", err)
	}
	if got, want := rel(t, root, files), []string{"CLAUDE.md=fallback"}; !equal(got, want) {
		t.Errorf("context files = %q, want %q", got, want)
	}
}

func TestLargeContextFileIsCutWithNote(t *testing.T) {
	line := strings.Repeat("é", 99) + "\n" // 199 bytes
	big := "\ufeff" + strings.Repeat(line, 2000)
	root := tree(t, map[string]string{".git": "<dir>", "AGENTS.md": big})
	files, err := LoadContextFiles("", root)
	if len(files) != 1 {
		t.Fatalf("LoadContextFiles = %d files, %v", len(files), err)
	}
	// The person is told too, not only the model.
	if !errors.Is(err, regfile.ErrTooLarge) || !strings.Contains(err.Error(), filepath.Join(root, "AGENTS.md")) || !strings.Contains(err.Error(), "first 256 KB") {
		t.Errorf("error = %v, want one naming the file and what was kept", err)
	}
	got := files[0].Content
	body, note, ok := strings.Cut(got, "\n[cairn: ")
	if !ok {
		t.Fatalf("no truncation note at the end of %d bytes", len(got))
	}
	if len(body) > MaxContextFileBytes || !strings.HasSuffix(body, "\n") || !utf8.ValidString(body) {
		t.Errorf("kept %d bytes ending %q; want at most %d, cut after a whole line", len(body), body[len(body)-5:], MaxContextFileBytes)
	}
	if strings.HasPrefix(body, "\ufeff") {
		t.Error("byte order mark kept")
	}
	if !strings.Contains(note, "389 KB") || !strings.Contains(note, "256 KB") {
		t.Errorf("note %q does not give the file's size and the limit", note)
	}
}

func TestLoadOverridesProjectFirst(t *testing.T) {
	root := tree(t, map[string]string{
		"home/SYSTEM.md":         "user system",
		"home/APPEND_SYSTEM.md":  "user append",
		"proj/.cairn/SYSTEM.md":  "project system",
		"other/.cairn/README.md": "",
	})
	home := filepath.Join(root, "home")
	custom, appendText, _ := LoadOverrides(home, filepath.Join(root, "proj"))
	if custom != "project system" || appendText != "user append" {
		t.Errorf("LoadOverrides(proj) = %q, %q", custom, appendText)
	}
	custom, appendText, _ = LoadOverrides(home, filepath.Join(root, "other"))
	if custom != "user system" || appendText != "user append" {
		t.Errorf("LoadOverrides(other) = %q, %q", custom, appendText)
	}
	custom, appendText, _ = LoadOverrides("", filepath.Join(root, "other"))
	if custom != "" || appendText != "" {
		t.Errorf("LoadOverrides without files = %q, %q", custom, appendText)
	}
}

func TestContextFileAtLimitIsWhole(t *testing.T) {
	exact := strings.Repeat("x", MaxContextFileBytes-1) + "\n"
	root := tree(t, map[string]string{".git": "<dir>", "AGENTS.md": "\ufeff" + exact})
	files, err := LoadContextFiles("", root)
	if err != nil || len(files) != 1 {
		t.Fatalf("LoadContextFiles = %d files, %v", len(files), err)
	}
	if files[0].Content != exact {
		t.Errorf("a file of exactly %d bytes after its byte order mark was changed (now %d bytes)", MaxContextFileBytes, len(files[0].Content))
	}
}

// TestSpecialFilesDoNotBlock: a named pipe or a directory where a context
// file or SYSTEM.md is expected is skipped with an error naming it, at
// once; the next candidate is used.
func TestSpecialFilesDoNotBlock(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) error
		kind string
	}{
		{"named pipe", func(path string) error { return syscall.Mkfifo(path, 0o644) }, "a named pipe"},
		{"directory", func(path string) error { return os.Mkdir(path, 0o755) }, "a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, root := t.TempDir(), tree(t, map[string]string{".git": "<dir>", "CLAUDE.md": "fallback", ".cairn/x": ""})
			if err := os.WriteFile(filepath.Join(home, "SYSTEM.md"), []byte("home prompt"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{filepath.Join(root, "AGENTS.md"), filepath.Join(root, ".cairn", "SYSTEM.md")} {
				if err := tt.make(p); err != nil {
					t.Fatal(err)
				}
			}
			type result struct {
				files  []ContextFile
				custom string
				errs   error
			}
			done := make(chan result, 1)
			go func() {
				files, err := LoadContextFiles("", root)
				custom, _, oerr := LoadOverrides(home, root)
				done <- result{files, custom, errors.Join(err, oerr)}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("loading blocked")
			}
			if got, want := rel(t, root, r.files), []string{"CLAUDE.md=fallback"}; !equal(got, want) {
				t.Errorf("context files = %q, want %q", got, want)
			}
			if r.custom != "home prompt" {
				t.Errorf("SYSTEM.md = %q, want the home one", r.custom)
			}
			for _, p := range []string{"AGENTS.md", filepath.Join(".cairn", "SYSTEM.md")} {
				if want := filepath.Join(root, p) + ": not a regular file (" + tt.kind + ")"; r.errs == nil || !strings.Contains(r.errs.Error(), want) {
					t.Errorf("errors %v do not say %q", r.errs, want)
				}
			}
		})
	}
}

// TestLargeSystemFileIsCut: SYSTEM.md is bounded like a context file, and
// the person is told.
func TestLargeSystemFileIsCut(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "SYSTEM.md"), []byte(strings.Repeat("rule\n", MaxContextFileBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	custom, _, err := LoadOverrides(home, "")
	if len(custom) > MaxContextFileBytes+200 || !strings.Contains(custom, "[cairn: this file is") {
		t.Errorf("SYSTEM.md gave %d bytes", len(custom))
	}
	if !errors.Is(err, regfile.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}
