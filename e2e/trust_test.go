package e2e

import (
	"os"
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
