package piext

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/compaction"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// SetLabel keeps a label entry on the branch's tip, as a session file
// does; an unknown target is refused with the session's error.
func (h *fakeHost) SetLabel(targetID, label string) error {
	h.mu.Lock()
	found := false
	for _, e := range h.entries {
		found = found || e.ID == targetID
	}
	h.mu.Unlock()
	if !found {
		return fmt.Errorf("label %s: %w", targetID, session.ErrUnknownEntry)
	}
	h.appendEntry(&session.LabelEntry{TargetID: targetID, Label: label})
	return nil
}

// SlashCommands lists the extensions' commands, one prompt template and
// one skill, as cairn's front ends do.
func (h *fakeHost) SlashCommands() []extension.SlashCommand {
	var out []extension.SlashCommand
	if h.commands != nil {
		for _, c := range h.commands() {
			out = append(out, extension.SlashCommand{Name: c.Name, Description: c.Description, Source: "extension"})
		}
	}
	return append(out,
		extension.SlashCommand{Name: "review", Description: "Review the diff", Source: "prompt",
			SourceInfo: &extension.SourceInfo{Path: "/home/u/.cairn/prompts/review.md", Source: "local", Scope: "user"}},
		extension.SlashCommand{Name: "skill:pdf", Description: "Read PDFs", Source: "skill",
			SourceInfo: &extension.SourceInfo{Path: "/home/u/.claude/skills/pdf/SKILL.md", Source: "local", Scope: "user"}})
}

// labels are the label entries the session holds, as "target=label".
func (h *fakeHost) labels() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.entries {
		if l, ok := e.Payload.(*session.LabelEntry); ok {
			out = append(out, l.TargetID+"="+l.Label)
		}
	}
	return out
}

// bookmark.ts: /bookmark labels the last assistant message (a label entry
// in the session, pi's setLabel), /unbookmark finds it by getLabel and
// clears it, and a second /unbookmark finds none.
func driveBookmark(t *testing.T) {
	h := startHostWith(t, t.TempDir(), nil, []session.Payload{
		&session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}},
		&session.MessageEntry{Message: &core.AssistantMessage{Content: []core.Content{core.TextBlock("hello")}}},
		&session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("more")}}},
	}, "tui", "bookmark.ts")
	h.input(t, "/bookmark first answer")
	h.host.waitFor(t, "the bookmark", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Bookmarked as: first answer")
	})
	if got := strings.Join(h.host.labels(), ";"); got != "e2=first answer" {
		t.Errorf("labels after /bookmark: %q", got)
	}
	h.input(t, "/unbookmark")
	h.host.waitFor(t, "the bookmark removed", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Removed bookmark: first answer")
	})
	if got := strings.Join(h.host.labels(), ";"); got != "e2=first answer;e2=" {
		t.Errorf("labels after /unbookmark: %q", got)
	}
	h.input(t, "/unbookmark")
	h.host.waitFor(t, "no bookmark left", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "No bookmarked entry found")
	})
}

// commands.ts: /commands lists cairn's commands by source (the
// extensions', the prompt templates, the skills: pi's getCommands), and
// /commands prompt shows a template's path when asked.
func driveCommands(t *testing.T) {
	h := startHost(t, "tui", "commands.ts")
	h.host.commands = h.m.Commands
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) {
		if q.Kind == core.QuestionSelect {
			return core.Answer{Value: q.Options[len(q.Options)-1].Value}, core.Answered
		}
		return core.Answer{Yes: true}, core.Answered
	}
	h.input(t, "/commands")
	h.host.waitFor(t, "the list", func(_ []core.Event, _ []string, asked []core.Question) bool { return len(asked) >= 2 })
	var got []string
	h.host.mu.Lock()
	first := h.host.asked[0]
	h.host.mu.Unlock()
	for _, o := range first.Options {
		got = append(got, o.Value)
	}
	want := "--- Extensions ---|/commands - List available slash commands|--- Prompts ---|/review - Review the diff|--- Skills ---|/skill:pdf - Read PDFs"
	if strings.Join(got, "|") != want {
		t.Errorf("listed %q\nwant %q", strings.Join(got, "|"), want)
	}
	h.host.waitFor(t, "the skill's path", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "/home/u/.claude/skills/pdf/SKILL.md")
	})
	h.input(t, "/commands prompt")
	h.host.waitFor(t, "the prompts only", func(_ []core.Event, _ []string, asked []core.Question) bool { return len(asked) >= 4 })
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if o := h.host.asked[2].Options; len(o) != 2 || o[1].Value != "/review - Review the diff" {
		t.Errorf("/commands prompt listed %+v", o)
	}
}

// git-merge-and-resolve.ts: after a run (agent_end, with the run's
// messages), a clean branch behind a conflicting upstream is fetched and
// merged, and the conflicts go to the agent as a follow-up message; the
// next run's end sends the unresolved ones again.
func driveGitMergeAndResolve(t *testing.T) {
	dir := t.TempDir()
	up, work := filepath.Join(dir, "up"), filepath.Join(dir, "work")
	if err := os.Mkdir(up, 0o700); err != nil {
		t.Fatal(err)
	}
	upGit := gitRepo(t, up)
	if out, err := exec.Command("git", "clone", "-q", up, work).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	workGit := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	workGit("config", "user.name", "t")
	workGit("config", "user.email", "t@example.com")
	branch := strings.TrimSpace(upGit("rev-parse", "--abbrev-ref", "HEAD"))
	for _, side := range []struct {
		dir, text string
		git       func(...string) string
	}{{up, "theirs\n", upGit}, {work, "ours\n", workGit}} {
		if err := os.WriteFile(filepath.Join(side.dir, "a.txt"), []byte(side.text), 0o600); err != nil {
			t.Fatal(err)
		}
		side.git("commit", "-qam", side.text)
	}
	h := startHostIn(t, work, nil, "tui", "git-merge-and-resolve.ts")
	end := func() {
		t.Helper()
		answer := &core.AssistantMessage{Content: []core.Content{core.TextBlock("done")}, StopReason: core.StopEnd}
		ev := agent.StopEvent{Message: answer, Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("go")}}, answer}}
		if _, err := h.ic.Stop(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	end()
	want := "followUp:Merged origin/" + branch + " with conflicts:\n\n  a.txt:1-5 (ours 2, theirs 4)\n\nResolve these conflicts."
	h.host.waitFor(t, "the conflicts sent", func(_ []core.Event, sent []string, _ []core.Question) bool { return slices.Contains(sent, want) })
	h.host.waitFor(t, "the merge announced", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "fetching origin, merging origin/"+branch)
	})
	end()
	again := "followUp:Merged MERGE_HEAD with conflicts:\n\n  a.txt:1-5 (ours 2, theirs 4)\n\nResolve these conflicts."
	h.host.waitFor(t, "the conflicts sent again", func(_ []core.Event, sent []string, _ []core.Question) bool { return slices.Contains(sent, again) })
}

// structured-output.ts: its tool's result carries pi's terminate hint, so
// the run ends without asking the model again (the agent's side is
// TestTerminatingToolEndsTheRun in core/agent).
func driveStructuredOutput(t *testing.T) {
	h := startHost(t, "print", "structured-output.ts")
	r := h.tool(t, "structured_output", `{"headline": "Release", "summary": "Ship it.", "actionItems": ["tag", "announce"]}`)
	if got := text(r); got != "Saved structured output: Release" || !r.Terminate || r.IsError {
		t.Errorf("result %q, terminate %v, error %v", got, r.Terminate, r.IsError)
	}
	if !strings.Contains(string(r.Details), `"actionItems":["tag","announce"]`) {
		t.Errorf("details %s", r.Details)
	}
}

// custom-compaction.ts: session_before_compact gets pi's preparation; the
// extension summarises all of it with Gemini Flash (a completion cairn
// runs) and returns its compaction, which cairn keeps (the agent's side is
// TestBeforeCompactSuppliesTheCompaction in core/agent). Without that
// model it says so and leaves the compaction to cairn.
func driveCustomCompaction(t *testing.T) {
	h := startHost(t, "tui", "custom-compaction.ts")
	prep := &compaction.Preparation{
		Summarize: []core.Message{
			&core.UserMessage{Content: []core.Content{core.TextBlock("rename the flag")}},
			&core.AssistantMessage{Content: []core.Content{core.TextBlock("renamed it to --quiet")}},
		},
		TurnPrefix:      []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("now the docs")}}},
		PreviousSummary: "an earlier summary",
		TokensBefore:    12345,
		ReadFiles:       []string{"main.go"},
	}
	ev := agent.CompactEvent{Reason: core.CompactionManual, Preparation: prep, FirstKeptEntryID: "e7"}

	r, err := h.ic.BeforeCompact(t.Context(), ev)
	if err != nil || r.Cancel || r.Compaction != nil {
		t.Fatalf("without Gemini Flash: %+v, %v", r, err)
	}
	h.host.waitFor(t, "the fallback said", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Could not find Gemini Flash model, using default compaction")
	})

	h.host.mu.Lock()
	h.host.models.extra = []extension.ModelChoice{{Model: core.Model{ID: "gemini-2.5-flash", Provider: "google", API: "google-generative-ai"}, Available: true}}
	h.host.models.faux = faux.New(faux.Options{}, faux.Response{Text: "## Goals\nRename the flag; document it."})
	h.host.mu.Unlock()
	r, err = h.ic.BeforeCompact(t.Context(), ev)
	if err != nil || r.Cancel || r.Compaction == nil {
		t.Fatalf("with Gemini Flash: %+v, %v", r, err)
	}
	if c := r.Compaction; c.Summary != "## Goals\nRename the flag; document it." || c.FirstKeptEntryID != "e7" || c.TokensBefore != 12345 {
		t.Errorf("compaction %+v", c)
	}
	h.host.waitFor(t, "the summarising said", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Custom compaction: summarizing 3 messages (12,345 tokens) with gemini-2.5-flash...")
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if len(h.host.models.requests) != 1 {
		t.Fatalf("%d completions", len(h.host.models.requests))
	}
	req := h.host.models.requests[0]
	asked := req.Messages[0].(*core.UserMessage).Text()
	if req.Model.ID != "gemini-2.5-flash" || req.MaxTokens != 8192 {
		t.Errorf("asked %s with %d tokens", req.Model.ID, req.MaxTokens)
	}
	for _, want := range []string{"Previous session summary for context:\nan earlier summary", "rename the flag", "renamed it to --quiet", "now the docs"} {
		if !strings.Contains(asked, want) {
			t.Errorf("the summary request lacks %q:\n%s", want, asked)
		}
	}
}

// sentCustom is a message an extension sent with send_message.
type sentCustom struct {
	msg         *core.CustomMessage
	triggerTurn *bool
	deliverAs   string
}

func (h *fakeHost) SendCustom(m *core.CustomMessage, triggerTurn *bool, deliverAs string) error {
	h.mu.Lock()
	h.customs = append(h.customs, sentCustom{m, triggerTurn, deliverAs})
	h.mu.Unlock()
	h.changed()
	return nil
}

// file-trigger.ts: once the session starts it watches its trigger file;
// what is written there reaches the conversation as its custom message
// (shown, and starting a turn: pi's sendMessage), and the file is
// emptied. The example's /tmp path is the test's own directory here.
func driveFileTrigger(t *testing.T) {
	dir := t.TempDir()
	trigger := filepath.Join(dir, "agent-trigger.txt")
	src, err := os.ReadFile(filepath.Join(examples, "file-trigger.ts"))
	if err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(dir, "file-trigger.ts")
	code := strings.ReplaceAll(string(src), `"/tmp/agent-trigger.txt"`, fmt.Sprintf("%q", trigger))
	if code == string(src) {
		t.Fatal("the example no longer names /tmp/agent-trigger.txt")
	}
	for name, text := range map[string]string{ext: code, trigger: ""} {
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h := startHost(t, "tui", ext)
	h.host.waitFor(t, "the watch", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Watching "+trigger)
	})
	if err := os.WriteFile(trigger, []byte("Run the tests\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got sentCustom
	h.host.waitFor(t, "the message", func([]core.Event, []string, []core.Question) bool {
		if len(h.host.customs) == 0 {
			return false
		}
		got = h.host.customs[0]
		return true
	})
	m := got.msg
	if m.CustomType != "file-trigger" || !m.Display || len(m.Content) != 1 || m.Content[0].Text != "External trigger: Run the tests" {
		t.Errorf("message %+v", m)
	}
	if got.triggerTurn == nil || !*got.triggerTurn || got.deliverAs != "" {
		t.Errorf("triggerTurn %v, deliverAs %q", got.triggerTurn, got.deliverAs)
	}
	if strings.Contains(notices(h.host.shownCopy()), "External trigger") {
		t.Error("the message was shown as a notice too")
	}
	b, _ := os.ReadFile(trigger)
	if len(b) != 0 {
		t.Errorf("the trigger file still holds %q", b)
	}
}

// shownCopy is what the host has shown so far.
func (h *fakeHost) shownCopy() []core.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.shown)
}

// NewConversationFor starts a new, empty conversation.
func (h *fakeHost) NewConversationFor(_ context.Context, parent string) (bool, error) {
	h.mu.Lock()
	h.newSessions = append(h.newSessions, parent)
	h.entries = nil
	h.mu.Unlock()
	h.changed()
	return false, nil
}

// handoff.ts: /handoff GOAL asks the session's model, through cairn, for a
// prompt carrying the conversation to a new session (a loader meanwhile),
// lets the person edit it, starts the new session (pi's ctx.newSession)
// and puts the prompt in its editor.
func driveHandoff(t *testing.T) {
	prefill := []session.Payload{
		&session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("add rate limiting to the API")}}},
		&session.MessageEntry{Message: &core.AssistantMessage{Content: []core.Content{core.TextBlock("Added a token bucket in api/limit.go.")},
			StopReason: core.StopEnd, Provider: "faux", Model: "faux-1", API: "faux"}},
	}
	h := startHostWith(t, t.TempDir(), nil, prefill, "tui", "handoff.ts")
	generated := "## Context\nA token bucket limits the API (api/limit.go).\n\n## Task\nDo the same for teams."
	h.host.mu.Lock()
	h.host.models.model = catalog[0].Model
	h.host.models.faux = faux.New(faux.Options{}, faux.Response{Text: generated})
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) {
		if q.Kind == core.QuestionEditor && q.Prefill == generated {
			return core.Answer{Value: generated + "\nKeep the tests."}, core.Answered
		}
		return core.Answer{}, core.Dismissed
	}
	h.host.mu.Unlock()
	h.input(t, "/handoff now implement this for teams as well")
	h.host.waitFor(t, "the prompt in the new session's editor", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.EditorTextSet{Text: generated + "\nKeep the tests."})) &&
			strings.Contains(notices(shown), "Handoff ready. Submit when ready.")
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if len(h.host.newSessions) != 1 || h.host.newSessions[0] != sessionPath {
		t.Errorf("new sessions %q, want one whose parent is %s", h.host.newSessions, sessionPath)
	}
	if !slices.Contains(h.host.shown, core.Event(core.StatusChanged{Key: "loader", Text: "Generating handoff prompt..."})) {
		t.Errorf("no loader shown")
	}
	reqs := h.host.models.requests
	if len(reqs) != 1 || !strings.HasPrefix(reqs[0].System, "You are a context transfer assistant") {
		t.Fatalf("requests %+v", reqs)
	}
	asked := reqs[0].Messages[0].(*core.UserMessage).Text()
	for _, want := range []string{"add rate limiting to the API", "Added a token bucket", "## User's Goal for New Thread\n\nnow implement this for teams as well"} {
		if !strings.Contains(asked, want) {
			t.Errorf("the request lacks %q:\n%s", want, asked)
		}
	}
}

// sessionPath is the fake session's file.
const sessionPath = "/home/u/.cairn/sessions/2026-01-01_s1.jsonl"

func (h *fakeHost) Conversation() agent.ConversationInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	return agent.ConversationInfo{ID: "s1", Path: sessionPath, Name: h.name}
}

// reload-runtime.ts: /reload-runtime reloads the extensions (pi's
// ctx.reload): each is told session_shutdown and, started again,
// session_start, both with reason "reload", and works as before; its tool
// queues /reload-runtime as a follow-up.
func driveReloadRuntime(t *testing.T) {
	notes, _ := filepath.Abs("testdata/api/lifecycle-notes.ts")
	h := startHost(t, "tui", "reload-runtime.ts", notes)
	h.host.waitFor(t, "the first start", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "started: startup")
	})
	h.input(t, "/reload-runtime")
	h.host.waitFor(t, "the reload", func(shown []core.Event, _ []string, _ []core.Question) bool {
		n := notices(shown)
		return strings.Contains(n, "shutdown: reload") && strings.Contains(n, "started: reload")
	})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Second)
	defer cancel()
	h.m.WaitStarted(ctx)
	for {
		changed := h.m.Changed()
		if st := h.member(t, "reload-runtime"); st.State == extension.Ready {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("not ready again: %+v", h.m.Statuses())
		}
	}
	if got := text(h.tool(t, "reload_runtime", `{}`)); got != "Queued /reload-runtime as a follow-up command." {
		t.Errorf("tool: %q", got)
	}
	h.host.waitFor(t, "the follow-up", func(_ []core.Event, sent []string, _ []core.Question) bool {
		return slices.Contains(sent, "followUp:/reload-runtime")
	})
	if strings.Contains(notices(h.host.shownCopy()), "stopped") {
		t.Errorf("a reload was told as a crash: %s", notices(h.host.shownCopy()))
	}
}
