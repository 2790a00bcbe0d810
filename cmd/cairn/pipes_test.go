package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartupSkipsNamedPipes: named pipes where cairn's own files belong,
// in a trusted project and in the person's cairn directory, do not hang
// start-up; each is named in a warning and the run goes on.
func TestStartupSkipsNamedPipes(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"responses": [{"text": "done"}]}`)
	writeFile(t, filepath.Join(project, "AGENTS.md"), "be brief")
	pipes := []string{
		filepath.Join(project, ".cairn", "approvals.json"),
		filepath.Join(project, ".cairn", "settings.json"),
		filepath.Join(project, ".cairn", "SYSTEM.md"),
		filepath.Join(project, ".cairn", "APPEND_SYSTEM.md"),
		filepath.Join(project, ".cairn", "prompts", "x.md"),
		filepath.Join(project, ".cairn", "mcp.json"),
		filepath.Join(project, ".mcp.json"),
		filepath.Join(home, "models.json"),
		filepath.Join(home, "mcp.json"),
		filepath.Join(home, "AGENTS.md"),
	}
	for _, p := range pipes {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			// Lets go a read a failing run left blocked.
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		})
	}
	t.Chdir(project)
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script}
	done := make(chan result, 1)
	go func() {
		done <- invoke(t, vars, nil, "--provider", "faux", "--no-session", "--trust-project", "-p", "go")
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("start-up blocked on a named pipe")
	}
	if r.code != 0 || !strings.Contains(r.stdout, "done") {
		t.Errorf("the run did not go on: code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	for _, p := range []string{
		filepath.Join(".cairn", "approvals.json"), filepath.Join(".cairn", "settings.json"), filepath.Join(".cairn", "SYSTEM.md"),
		filepath.Join(".cairn", "prompts", "x.md"), "models.json",
	} {
		if !strings.Contains(r.stderr, p+": not a regular file (a named pipe)") {
			t.Errorf("stderr does not name %s as a named pipe:\n%s", p, r.stderr)
		}
	}
}
