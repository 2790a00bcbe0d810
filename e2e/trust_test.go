package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIProjectTrust starts cairn in a cloned repository whose
// .cairn/settings.json asks for yolo: cairn asks on the terminal before the
// interface starts. Refused, the footer shows the default mode and the
// interface says what it ignored; accepted, the project's yolo applies,
// and the next start does not ask again.
func TestTUIProjectTrust(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	settings := filepath.Join(h.project, ".cairn", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"approvalMode": "yolo"}`), 0o644); err != nil {
		t.Fatal(err)
	}

	p := h.cairn("no", 100, 30)
	p.waitText(`.cairn/settings.json  (sets approvalMode "yolo")`, "[y/N]")
	p.typeText("n")
	p.keys("Enter")
	screen := p.waitText("test-model", "is not trusted")
	if !strings.Contains(lastRows(screen, 3), "default") || strings.Contains(lastRows(screen, 3), "yolo") {
		t.Errorf("refused, the footer does not show the default mode:\n%s", frame(screen))
	}
	p.keys("C-d")
	p.waitExit()

	p = h.cairn("yes", 100, 30)
	p.waitText("[y/N]")
	p.typeText("y")
	p.keys("Enter")
	screen = p.waitText("test-model")
	if !strings.Contains(lastRows(screen, 3), "yolo") {
		t.Errorf("trusted, the footer does not show the project's yolo:\n%s", frame(screen))
	}
	p.keys("C-d")
	p.waitExit()

	p = h.cairn("again", 100, 30)
	screen = p.waitText("test-model")
	if strings.Contains(p.history()+screen, "[y/N]") || !strings.Contains(lastRows(screen, 3), "yolo") {
		t.Errorf("a trusted project was asked about again:\n%s", frame(screen))
	}
	p.keys("C-d")
	p.waitExit()
}

// TestTUIUntrustedProjectRunsNoGit: a repository whose git configuration
// names a core.fsmonitor program, refused trust, runs nothing: the
// interface lists files for @ by walking the tree, and the program never
// runs. Trusted, git lists them (and runs the program: the plant works).
func TestTUIUntrustedProjectRunsNoGit(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	mark := filepath.Join(t.TempDir(), "fsmonitor-ran")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	files := map[string]string{
		hook:                                  "#!/bin/sh\necho ran >> " + mark + "\n",
		filepath.Join(h.project, "alpha.txt"): "x",
		filepath.Join(h.project, ".cairn", "settings.json"): `{"approvalMode": "yolo"}`,
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "alpha.txt"}, {"config", "core.fsmonitor", hook}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = h.project
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	for _, answer := range []string{"n", "y"} {
		p := h.cairn("answer-"+answer, 100, 30)
		p.waitText("[y/N]")
		p.typeText(answer)
		p.keys("Enter")
		p.waitText("test-model")
		// The popup shows alpha.txt once the listing is done.
		p.typeText("@alph")
		p.waitText("alpha.txt")
		_, err := os.Stat(mark)
		if ran := err == nil; ran != (answer == "y") {
			t.Errorf("answered %s: the repository's fsmonitor ran: %v", answer, ran)
		}
		p.keys("C-c", "C-d")
		p.waitExit()
	}
}
