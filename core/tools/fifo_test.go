package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// mkfifo makes a named pipe at path. Cleanup opens it for writing, which
// lets go a reader that a failing test left blocked on it.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// TestSearchSkipsNamedPipes: grep, find and ls never block on a named
// pipe they meet in the tree, whether it stands where an ignore file is
// read or is an ordinary entry; grep names no pipe as a match.
func TestSearchSkipsNamedPipes(t *testing.T) {
	pipes := []string{
		".gitignore", "src/.gitignore", "docs/.ignore", ".git/info/exclude", "src/queue.txt",
	}
	tests := []struct {
		name string
		tool func(dir string) core.Tool
		args map[string]any
		want string // in the result
	}{
		{"grep a tree", func(dir string) core.Tool { return NewGrep(dir) }, map[string]any{"pattern": "TODO"}, "main.go:4:"},
		{"grep below the root", func(dir string) core.Tool { return NewGrep(filepath.Join(dir, "src")) }, map[string]any{"pattern": "TODO"}, "lib.go:3:"},
		{"grep a pipe by name", func(dir string) core.Tool { return NewGrep(dir) }, map[string]any{"pattern": "TODO", "path": "src/queue.txt"}, "No matches found"},
		{"find", func(dir string) core.Tool { return NewFind(dir) }, map[string]any{"pattern": "*.go"}, "src/lib.go"},
		{"ls", func(dir string) core.Tool { return NewLs(dir) }, map[string]any{"path": "src"}, "lib.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"main.go":    "package main\n\nfunc main() {\n\t// TODO start\n}\n",
				"src/lib.go": "package src\n// todo lower\n// TODO upper\n",
				".git/HEAD":  "ref: refs/heads/main\n",
				"docs/a.md":  "TODO doc\n",
			})
			for _, p := range pipes {
				mkfifo(t, filepath.Join(dir, p))
			}
			raw, err := json.Marshal(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			tool := tt.tool(dir)
			done := make(chan core.ToolResult, 1)
			go func() {
				res, _ := tool.Execute(context.Background(), core.ToolCall{ID: "c", Name: tool.Spec().Name, Arguments: raw}, nil)
				done <- res
			}()
			select {
			case res := <-done:
				if got := text(res); !strings.Contains(got, tt.want) || strings.Contains(got, "queue.txt:") {
					t.Errorf("result:\n%s\nwant it to hold %q", got, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("blocked on a named pipe")
			}
		})
	}
}
