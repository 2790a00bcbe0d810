package tui

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGitBranch: the footer's branch comes from reading .git/HEAD as a
// file, and a named pipe planted there or as a worktree's .git file gives
// no branch instead of hanging the interface.
func TestGitBranch(t *testing.T) {
	write := func(t *testing.T, path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := func(t *testing.T, path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			// Lets go a read a failing test left blocked.
			if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		})
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"a branch", func(t *testing.T, dir string) { write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n") }, "main"},
		{"detached", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, ".git", "HEAD"), "0123456789abcdef\n")
		}, "0123456"},
		{"a worktree", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "real", "HEAD"), "ref: refs/heads/wt\n")
			write(t, filepath.Join(dir, ".git"), "gitdir: real\n")
		}, "wt"},
		{"HEAD is a named pipe", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, ".git", "HEAD")) }, ""},
		{"the .git file is a named pipe", func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, ".git")) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			done := make(chan string, 1)
			go func() { done <- gitBranch(dir) }()
			select {
			case got := <-done:
				if got != tt.want {
					t.Errorf("gitBranch = %q, want %q", got, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("gitBranch blocked")
			}
		})
	}
}
