package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// piExamples is where pi 0.87.1's example extensions are kept.
var piExamples = filepath.Join("..", "core", "piext", "testdata", "pi-examples")

// needNode skips a test of pi's extensions without node, and fails it in
// CI, which installs node.
func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is needed in CI")
		}
		t.Skip("node is not installed")
	}
}

// piExample is the absolute path of pi's example name.
func piExample(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(piExamples, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// installPiExamples copies pi's examples names into the person's
// ~/.pi/agent/extensions, where cairn finds them as pi does.
func (h *harness) installPiExamples(t *testing.T, names ...string) {
	t.Helper()
	dir := filepath.Join(h.home, ".pi", "agent", "extensions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range names {
		data, err := os.ReadFile(filepath.Join(piExamples, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// logExtensionsOnFailure has a failing test log what the extensions wrote
// to their logs.
func (h *harness) logExtensionsOnFailure(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := filepath.Glob(filepath.Join(h.home, ".cairn", "logs", "extensions", "*"))
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", l, data)
			}
		}
	})
}
