package piext

// The session lifecycle's examples: session_before_switch and
// session_before_fork, with pi's cancel semantics.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// switchTo asks the extensions about a move to another conversation.
func (h *harness) switchTo(t *testing.T, ev agent.SwitchEvent) agent.SwitchResult {
	t.Helper()
	r, err := h.ic.BeforeSwitch(t.Context(), ev)
	if err != nil {
		t.Fatalf("%+v: %v", ev, err)
	}
	return r
}

// gitRepo makes dir a git repository with one commit, and returns a git
// runner in it.
func gitRepo(t *testing.T, dir string) func(args ...string) string {
	t.Helper()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("config", "user.name", "t")
	git("config", "user.email", "t@example.com")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-qm", "one")
	return git
}

// confirm-destructive: a new session, a switch away from a session with
// messages, and a fork are each confirmed first, and cancelled when the
// person says no; without a UI nothing is asked and nothing cancelled.
func driveConfirmDestructive(t *testing.T) {
	user := &session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}}
	h := startHostWith(t, t.TempDir(), nil, []session.Payload{user}, "tui", "confirm-destructive.ts")
	yes := false
	choice := "No, stay in current session"
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) {
		return core.Answer{Yes: yes, Value: choice}, core.Answered
	}
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchNew}); !r.Cancel {
		t.Errorf("new, answered no: %+v", r)
	}
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchResume, Target: "/s/other.jsonl"}); !r.Cancel {
		t.Errorf("resume, answered no: %+v", r)
	}
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchFork, EntryID: "e1-abcdefgh"}); !r.Cancel {
		t.Errorf("fork, answered no: %+v", r)
	}
	h.host.waitFor(t, "the cancels told", func(shown []core.Event, _ []string, asked []core.Question) bool {
		n := notices(shown)
		return strings.Contains(n, "Clear cancelled") && strings.Contains(n, "Switch cancelled") && strings.Contains(n, "Fork cancelled")
	})
	h.host.mu.Lock()
	asked := h.host.asked
	h.host.mu.Unlock()
	if len(asked) != 3 || asked[0].Title != "Clear session?" || asked[1].Title != "Switch session?" || asked[2].Title != "Fork from entry e1-abcde?" {
		t.Errorf("asked %+v", asked)
	}
	yes, choice = true, "Yes, create fork"
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchNew}); r.Cancel {
		t.Errorf("new, answered yes: %+v", r)
	}
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchFork, EntryID: "e1"}); r.Cancel {
		t.Errorf("fork, answered yes: %+v", r)
	}

	// A session with no user message is left without asking.
	h = startHost(t, "tui", "confirm-destructive.ts")
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchResume, Target: "/s/other.jsonl"}); r.Cancel || len(h.host.asked) != 0 {
		t.Errorf("resume from an empty session: %+v, asked %d", r, len(h.host.asked))
	}
	// Without a UI it stays out of the way.
	h = startHost(t, "print", "confirm-destructive.ts")
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchNew}); r.Cancel {
		t.Errorf("print: %+v", r)
	}
}

// dirty-repo-guard: with uncommitted changes, a new session, a switch or
// a fork goes ahead only when the person says so; without a UI it is
// refused; a clean repository is not asked about.
func driveDirtyRepoGuard(t *testing.T) {
	cwd := t.TempDir()
	gitRepo(t, cwd)
	h := startHostIn(t, cwd, nil, "tui", "dirty-repo-guard.ts")
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchNew}); r.Cancel || len(h.host.asked) != 0 {
		t.Errorf("clean: %+v, asked %d", r, len(h.host.asked))
	}
	if err := os.WriteFile(filepath.Join(cwd, "a.txt"), []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	choice := "No, let me commit first"
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) { return core.Answer{Value: choice}, core.Answered }
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchResume, Target: "/s/x.jsonl"}); !r.Cancel {
		t.Errorf("dirty, answered no: %+v", r)
	}
	h.host.waitFor(t, "the warning", func(shown []core.Event, _ []string, asked []core.Question) bool {
		return strings.Contains(notices(shown), "Commit your changes first") &&
			len(asked) == 1 && asked[0].Title == "You have 1 uncommitted file(s). switch session anyway?"
	})
	choice = "Yes, proceed anyway"
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchFork, EntryID: "e1"}); r.Cancel {
		t.Errorf("dirty, answered yes: %+v", r)
	}
	h = startHostIn(t, cwd, nil, "print", "dirty-repo-guard.ts")
	if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchNew}); !r.Cancel {
		t.Errorf("dirty, no UI: %+v", r)
	}
}
