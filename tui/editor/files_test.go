package editor

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// plantedRepo makes a git work tree whose configuration names a
// core.fsmonitor program, as a hostile repository would, and returns it
// with the file the program leaves when git runs it.
func plantedRepo(t *testing.T) (dir, mark string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir = t.TempDir()
	mark = filepath.Join(t.TempDir(), "fsmonitor-ran")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho ran >> "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}, {"config", "core.fsmonitor", hook}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir, mark
}

// TestIndexFilesRunsGitOnlyWhenAllowed: without UseGit (a project the
// person has not trusted), listing files for @ runs no git at all, so the
// repository's fsmonitor program never runs, and the files are still
// found; with it, git lists them (and, as this repository is planted, runs
// the program: the check that the plant works).
func TestIndexFilesRunsGitOnlyWhenAllowed(t *testing.T) {
	for _, useGit := range []bool{false, true} {
		dir, mark := plantedRepo(t)
		done := make(chan []string, 1)
		go func() {
			msg := indexFiles(dir, useGit, 100, 1)()
			done <- msg.(InternalMsg).payload.(filesIndexed).paths
		}()
		var paths []string
		select {
		case paths = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("listing files did not finish")
		}
		if !slices.Contains(paths, "a.txt") {
			t.Errorf("useGit %v: files %q lack a.txt", useGit, paths)
		}
		_, err := os.Stat(mark)
		if ran := err == nil; ran != useGit {
			t.Errorf("useGit %v: the repository's fsmonitor ran: %v", useGit, ran)
		}
	}
}
