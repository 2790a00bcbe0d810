package piext

// The session lifecycle's examples: session_before_switch and
// session_before_fork, with pi's cancel semantics.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// trigger-compact: a turn that takes the context past 100k tokens
// compacts it; /trigger-compact compacts with the instructions given; each
// says when it started and how it ended.
func driveTriggerCompact(t *testing.T) {
	h := startHost(t, "tui", "trigger-compact.ts")
	turn := func(tokens int) {
		t.Helper()
		msg := &core.AssistantMessage{Usage: core.Usage{Input: tokens - 500, Output: 500, TotalTokens: tokens}}
		if err := h.ic.TurnEnd(t.Context(), agent.TurnEndEvent{Message: msg}); err != nil {
			t.Fatal(err)
		}
	}
	completed := func(n int) func([]core.Event, []string, []core.Question) bool {
		return func(shown []core.Event, _ []string, _ []core.Question) bool {
			return strings.Count(notices(shown), "Compaction completed") == n
		}
	}
	turn(90_000)
	turn(99_000)
	h.host.mu.Lock()
	early := len(h.host.compacted)
	h.host.mu.Unlock()
	if early != 0 {
		t.Errorf("compacted below the threshold")
	}
	turn(120_000)
	h.host.waitFor(t, "the compaction past 100k", completed(1))
	h.input(t, "/trigger-compact keep the API notes")
	h.host.waitFor(t, "the compaction asked for", completed(2))
	h.host.mu.Lock()
	h.host.compactErr = errors.New("nothing to compact")
	compacted := slices.Clone(h.host.compacted)
	started := strings.Count(notices(h.host.shown), "Compaction started")
	h.host.mu.Unlock()
	if !slices.Equal(compacted, []string{"", "keep the API notes"}) {
		t.Errorf("compacted with %q", compacted)
	}
	if started != 2 {
		t.Errorf("%d starts told", started)
	}
	h.input(t, "/trigger-compact")
	h.host.waitFor(t, "the failure told", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Compaction failed: nothing to compact")
	})
}

// shutdown-command: /quit, and the finish_and_exit tool, ask cairn to end
// the session; the tool's result still reaches the model.
func driveShutdownCommand(t *testing.T) {
	h := startHost(t, "tui", "shutdown-command.ts")
	shutdowns := func(n int) func([]core.Event, []string, []core.Question) bool {
		// waitFor holds the host's lock while it asks.
		return func([]core.Event, []string, []core.Question) bool { return h.host.shutdowns == n }
	}
	h.input(t, "/quit")
	h.host.waitFor(t, "a shutdown asked by /quit", shutdowns(1))
	if got := text(h.tool(t, "finish_and_exit", `{}`)); got != "Shutdown requested. Exiting after this response." {
		t.Errorf("finish_and_exit: %q", got)
	}
	h.host.waitFor(t, "a shutdown asked by the tool", shutdowns(2))
}

// git-checkpoint: the working tree is stashed (git stash create) as each
// turn starts, under the entry the last tool result left; forking from
// that entry offers to restore it, and restores it when asked to.
func driveGitCheckpoint(t *testing.T) {
	cwd := t.TempDir()
	gitRepo(t, cwd)
	user := &session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("edit a.txt")}}}
	h := startHostWith(t, cwd, nil, []session.Payload{user}, "tui", "git-checkpoint.ts")
	a := filepath.Join(cwd, "a.txt")
	if err := os.WriteFile(a, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ic.ToolResult(t.Context(), agent.ToolResultEvent{Call: core.ToolCall{ID: "c1", Name: "bash", Arguments: []byte(`{}`)},
		Result: core.ToolResult{Content: []core.Content{core.TextBlock("ok")}}}); err != nil {
		t.Fatal(err)
	}
	h.host.events <- core.TurnStart{}
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) {
		// Since the checkpoint, the turn's changes were lost. (Not
		// git(): this runs on the host's goroutine, where t.Fatal may not.)
		if out, err := exec.Command("git", "-C", cwd, "checkout", "--", "a.txt").CombinedOutput(); err != nil {
			t.Errorf("git checkout: %v\n%s", err, out)
		}
		return core.Answer{Value: "Yes, restore code to that point"}, core.Answered
	}
	// turn_start is told, not asked: its stash is made while cairn goes
	// on. Each fork below is a round trip to the host, which then has had
	// time to finish it; the first that finds the checkpoint asks.
	deadline := time.Now().Add(20 * time.Second)
	for {
		h.host.mu.Lock()
		asked := len(h.host.asked)
		h.host.mu.Unlock()
		if asked > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fork never offered the checkpoint")
		}
		if r := h.switchTo(t, agent.SwitchEvent{Kind: agent.SwitchFork, EntryID: "e1"}); r.Cancel {
			t.Fatalf("fork cancelled: %+v", r)
		}
	}
	h.host.waitFor(t, "the code restored", func(shown []core.Event, _ []string, asked []core.Question) bool {
		return strings.Contains(notices(shown), "Code restored to checkpoint") && asked[0].Title == "Restore code state?"
	})
	if got, err := os.ReadFile(a); err != nil || string(got) != "two\n" {
		t.Errorf("a.txt holds %q (%v), want the checkpoint's", got, err)
	}
}
