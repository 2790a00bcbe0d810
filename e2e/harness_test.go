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
// terminal is the TERM cairn sees (tmux's default-terminal); env adds
// variables (NAME=value) to cairn's environment.
func newHarness(t testing.TB, terminal string, env ...string) *harness {
	t.Helper()
	requireTmux(t)
	root := t.TempDir()
	// The project lives in the home directory, so the footer shows it as
	// ~/project.
	home := filepath.Join(root, "home")
	h := &harness{t: t, home: home, project: filepath.Join(home, "project")}
	for _, d := range []string{h.home, h.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The server is closed after tmux is killed (cleanups run last first),
	// so no cairn is left talking to it.
	h.llm = startFakeLLM(t)
	h.tmux = startTmux(t, terminal, append(h.env(), env...))
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
// ad-hoc model the catalog does not list. No --provider: an ad-hoc model of
// a known provider speaks that provider's wire format (OpenAI's is the
// Responses API), while one of no provider speaks Chat Completions.
func (h *harness) cairnArgs(extra ...string) []string {
	args := []string{cairnBin, "--model", "test-model", "--base-url", h.llm.baseURL(), "--api-key", "test"}
	return append(args, extra...)
}

// cairn starts cairn in a new tmux session of the given size.
func (h *harness) cairn(name string, width, height int, extra ...string) *pane {
	h.t.Helper()
	return h.tmux.start(name, width, height, h.project, h.cairnArgs(extra...)...)
}
