package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// harness is one isolated cairn installation: a home directory, a project
// directory to work in, a fake model server and a tmux server.
type harness struct {
	t       testing.TB
	llm     *fakeLLM
	tmux    *tmuxServer
	home    string
	project string
}

// newHarness sets everything up; all of it goes away when the test ends.
func newHarness(t testing.TB) *harness {
	t.Helper()
	requireTmux(t)
	root := t.TempDir()
	h := &harness{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	for _, d := range []string{h.home, h.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The server is closed after tmux is killed (cleanups run last first),
	// so no cairn is left talking to it.
	h.llm = startFakeLLM(t)
	h.tmux = startTmux(t, h.env())
	return h
}

// env is the whole environment of the tmux server and so of cairn: no
// credentials and no settings from the machine running the tests.
func (h *harness) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + h.home,
		"CAIRN_DIR=" + filepath.Join(h.home, ".cairn"),
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"COLORTERM=truecolor",
		"SHELL=/bin/sh",
		"TMPDIR=" + os.TempDir(),
	}
}

// cairnArgs are the flags that point cairn at the fake server, with an
// ad-hoc model the catalog does not list.
func (h *harness) cairnArgs(extra ...string) []string {
	args := []string{cairnBin, "--provider", "openai", "--model", "test-model", "--base-url", h.llm.baseURL(), "--api-key", "test"}
	return append(args, extra...)
}

// cairn starts cairn in a new tmux session of the given size.
func (h *harness) cairn(name string, width, height int, extra ...string) *pane {
	h.t.Helper()
	return h.tmux.start(name, width, height, h.project, h.cairnArgs(extra...)...)
}
