package piext

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
)

// How an example of pi 0.87.1 fares in cairn.
const (
	// works: it loads, and the test drives what its comments describe.
	works = "works"
	// loads: it loads and runs what cairn's protocol carries; why says
	// what of it needs more.
	loads = "loads"
	// piOnly: it loads, but what it is for is a display only pi's own
	// terminal has (ui.custom components, a replaced editor, footer or
	// header, custom renderers).
	piOnly = "pi-only display"
	// deps: it needs npm dependencies installed in its directory first
	// (`npm install`, as its README says); without them it fails to load
	// and says which module is missing.
	deps = "needs npm install"
)

// example is one of the examples and how it fares.
type example struct {
	name  string
	fate  string
	why   string
	drive func(t *testing.T)
}

// exampleTable is every extension pi 0.87.1 ships in examples/extensions:
// its 68 files and 9 directories.
var exampleTable = []example{
	{"auto-commit-on-exit.ts", works, "", driveAutoCommit},
	{"bash-spawn-hook.ts", works, "", driveBashSpawnHook},
	{"bookmark.ts", works, "", driveBookmark},
	{"border-status-editor.ts", works, "", driveBorderStatusEditor},
	{"built-in-tool-renderer.ts", works, "", driveBuiltInToolRenderer},
	{"claude-rules.ts", works, "", driveClaudeRules},
	{"commands.ts", works, "", driveCommands},
	{"confirm-destructive.ts", works, "", driveConfirmDestructive},
	{"custom-compaction.ts", works, "", driveCustomCompaction},
	{"custom-footer.ts", works, "", driveCustomFooter},
	{"custom-header.ts", works, "", driveCustomHeader},
	{"custom-provider-anthropic", works, "", driveCustomProviderAnthropic},
	{"custom-provider-gitlab-duo", works, "", driveGitLabDuo},
	{"dirty-repo-guard.ts", works, "", driveDirtyRepoGuard},
	{"doom-overlay", loads, "not run here: it needs its WebAssembly engine built first (doom/build.sh, with emscripten and doomgeneric's source, neither shipped) and the shareware WAD, which /doom-overlay downloads from www.gamers.org (this machine reaches only npm, the Go proxy and apt; /doom-overlay PATH takes a local WAD); its overlay would be shown as overlay-test's is", nil},
	{"dynamic-resources", works, "", driveDynamicResources},
	{"dynamic-tools.ts", works, "", driveDynamicTools},
	{"entry-renderer.ts", works, "", driveEntryRenderer},
	{"event-bus.ts", works, "", driveEventBus},
	{"file-trigger.ts", works, "", driveFileTrigger},
	{"git-checkpoint.ts", works, "", driveGitCheckpoint},
	{"git-merge-and-resolve.ts", works, "", driveGitMergeAndResolve},
	{"github-issue-autocomplete.ts", piOnly, "an editor autocomplete provider", nil},
	{"gondolin", deps, "loads once installed; its micro-VM needs QEMU and Node 23.6 or newer: not driven here", nil},
	{"handoff.ts", works, "", driveHandoff},
	{"hello.ts", works, "", driveHello},
	{"hidden-thinking-label.ts", works, "", driveHiddenThinkingLabel},
	{"inline-bash.ts", works, "", driveInlineBash},
	{"input-transform-streaming.ts", works, "", driveInputTransformStreaming},
	{"input-transform.ts", works, "", driveInputTransform},
	{"interactive-shell.ts", piOnly, "runs a shell inside pi's terminal (ui.custom)", nil},
	{"mac-system-theme.ts", piOnly, "macOS only (asks osascript for the system's appearance); and it switches pi's theme with ctx.ui.setTheme, which cairn refuses: cairn's theme is cairn's own setting", nil},
	{"message-renderer.ts", works, "", driveMessageRenderer},
	{"minimal-mode.ts", works, "", driveMinimalMode},
	{"modal-editor.ts", works, "", driveModalEditor},
	{"model-status.ts", works, "", driveModelStatus},
	{"notify.ts", piOnly, "it writes an OSC 777/99 escape to its own stdout, which in cairn is the host's log: an extension never writes to cairn's terminal (the escape would be untrusted bytes in the TUI's frame); cairn's TUI sends such a desktop notification itself when a run ends while its terminal is not focused (tui/notify.go, the notifications setting)", nil},
	{"overlay-qa-tests.ts", works, "anchors, margins, percentages, maxHeight, the side panel and the animation; /overlay-stack, -passive, -focus, -streaming and -toggle open more overlays with tui.showOverlay, which cairn does not show yet", driveOverlayQATests},
	{"overlay-test.ts", works, "", driveOverlayTest},
	{"permission-gate.ts", works, "", drivePermissionGate},
	{"pirate.ts", works, "", drivePirate},
	{"plan-mode", works, "", drivePlanMode},
	{"preset.ts", works, "", drivePreset},
	{"project-trust.ts", loads, "project_trust is not sent, by design: cairn settles trust before any extension runs, from the person alone; an extension's \"yes\" would trust a project silently", nil},
	{"prompt-customizer.ts", works, "", drivePromptCustomizer},
	{"protected-paths.ts", works, "", driveProtectedPaths},
	{"provider-payload.ts", works, "", driveProviderPayload},
	{"qna.ts", works, "", driveQnA},
	{"question.ts", works, "", driveQuestion},
	{"questionnaire.ts", works, "", driveQuestionnaire},
	{"rainbow-editor.ts", works, "", driveRainbowEditor},
	{"reload-runtime.ts", works, "", driveReloadRuntime},
	{"rpc-demo.ts", works, "", driveRPCDemo},
	{"sandbox", works, "", driveSandbox},
	{"send-user-message.ts", works, "", driveSendUserMessage},
	{"session-name.ts", works, "", driveSessionName},
	{"shutdown-command.ts", works, "", driveShutdownCommand},
	{"snake.ts", works, "", driveSnake},
	{"space-invaders.ts", works, "", driveSpaceInvaders},
	{"ssh.ts", works, "", driveSSH},
	{"status-line.ts", works, "", driveStatusLine},
	{"structured-output.ts", works, "", driveStructuredOutput},
	{"subagent", works, "", driveSubagent},
	{"summarize.ts", works, "", driveSummarize},
	{"system-prompt-header.ts", works, "", driveSystemPromptHeader},
	{"tic-tac-toe.ts", works, "", driveTicTacToe},
	{"timed-confirm.ts", works, "", driveTimedConfirm},
	{"titlebar-spinner.ts", works, "", driveTitlebarSpinner},
	{"todo.ts", works, "", driveTodo},
	{"tool-override.ts", works, "", driveToolOverride},
	{"tools.ts", works, "", driveTools},
	{"trigger-compact.ts", works, "", driveTriggerCompact},
	{"truncated-tool.ts", works, "", driveTruncatedTool},
	{"widget-placement.ts", works, "", driveWidgetPlacement},
	{"with-deps", works, "", driveWithDeps},
	{"working-indicator.ts", works, "", driveWorkingIndicator},
	{"working-message-test.ts", works, "", driveWorkingMessageTest},
}

// TestExampleTableIsComplete: the table names every example pi ships,
// once, and each example not working says why.
func TestExampleTableIsComplete(t *testing.T) {
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".ts") {
			want = append(want, e.Name())
		}
	}
	var got []string
	counts := map[string]int{}
	for _, ex := range exampleTable {
		got = append(got, ex.name)
		counts[ex.fate]++
		if (ex.fate == works) != (ex.drive != nil) {
			t.Errorf("%s: %s, drive %v", ex.name, ex.fate, ex.drive != nil)
		}
		if ex.fate != works && ex.fate != deps && ex.why == "" {
			t.Errorf("%s: %s without why", ex.name, ex.fate)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("table %q\nexamples %q", got, want)
	}
	t.Logf("%d examples: %d work, %d load (%d of them need more of pi's API), %d need a pi-only display, %d need npm install",
		len(got), counts[works], counts[works]+counts[loads]+counts[piOnly], counts[loads], counts[piOnly], counts[deps])
}

// TestExamplesLoad loads every example in a few hosts (one Node process
// each, as a session runs one), and checks each loads, or fails to load
// saying which npm module is missing.
func TestExamplesLoad(t *testing.T) {
	needNode(t)
	const perHost = 13
	for i := 0; i < len(exampleTable); i += perHost {
		batch := exampleTable[i:min(i+perHost, len(exampleTable))]
		var files []string
		for _, ex := range batch {
			files = append(files, ex.name)
		}
		h := startHost(t, "tui", files...)
		for _, ex := range batch {
			name := strings.TrimSuffix(ex.name, ".ts")
			st := h.member(t, name)
			switch {
			case needsInstall(ex.name) && !depsInstalled(t, ex.name):
				if st.State != extension.Failed || !strings.Contains(st.Err.Error(), "Cannot find module") {
					t.Errorf("%s: %v %v, want a missing module", ex.name, st.State, st.Err)
				}
			case ex.fate == deps:
				checkInstalledDeps(t, ex.name, st)
			case st.State != extension.Ready:
				t.Errorf("%s: %v: %v", ex.name, st.State, st.Err)
			}
		}
		h.m.Close()
	}
}

func TestExamplesWork(t *testing.T) {
	for _, ex := range exampleTable {
		if ex.drive == nil {
			continue
		}
		t.Run(strings.TrimSuffix(ex.name, ".ts"), ex.drive)
	}
}

func driveHello(t *testing.T) {
	h := startHost(t, "print", "hello.ts")
	if got := text(h.tool(t, "hello", `{"name": "Ann"}`)); got != "Hello, Ann!" {
		t.Errorf("hello: %q", got)
	}
}

// permission-gate: a dangerous bash command is blocked with no UI, asked
// about with one (and runs only when allowed); a harmless one passes.
func drivePermissionGate(t *testing.T) {
	h := startHost(t, "print", "permission-gate.ts")
	if r := h.toolCall(t, "bash", `{"command": "rm -rf build"}`); r.Decision != agent.CallBlock || !strings.Contains(r.Reason, "no UI") {
		t.Errorf("print: %+v", r)
	}
	if r := h.toolCall(t, "bash", `{"command": "ls"}`); r.Decision == agent.CallBlock {
		t.Errorf("ls blocked: %+v", r)
	}
	h = startHost(t, "tui", "permission-gate.ts")
	choice := "No"
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) { return core.Answer{Value: choice}, core.Answered }
	if r := h.toolCall(t, "bash", `{"command": "sudo rm x"}`); r.Decision != agent.CallBlock || r.Reason != "Blocked by user" {
		t.Errorf("answered No: %+v", r)
	}
	choice = "Yes"
	if r := h.toolCall(t, "bash", `{"command": "sudo rm x"}`); r.Decision == agent.CallBlock {
		t.Errorf("answered Yes: %+v", r)
	}
	if len(h.host.asked) != 2 || !strings.Contains(h.host.asked[0].Title, "Dangerous command") {
		t.Errorf("asked %+v", h.host.asked)
	}
}

func driveProtectedPaths(t *testing.T) {
	h := startHost(t, "print", "protected-paths.ts")
	if r := h.toolCall(t, "write", `{"path": ".env", "content": "x"}`); r.Decision != agent.CallBlock || !strings.Contains(r.Reason, "protected") {
		t.Errorf(".env: %+v", r)
	}
	if r := h.toolCall(t, "write", `{"path": "src/a.ts", "content": "x"}`); r.Decision == agent.CallBlock {
		t.Errorf("src/a.ts: %+v", r)
	}
}

func driveInputTransform(t *testing.T) {
	h := startHost(t, "tui", "input-transform.ts")
	if r := h.input(t, "?quick what is go"); r.Action != agent.InputTransform || r.Text != "Respond briefly in 1-2 sentences: what is go" {
		t.Errorf("?quick: %+v", r)
	}
	if r := h.input(t, "ping"); r.Action != agent.InputHandled {
		t.Errorf("ping: %+v", r)
	}
	h.host.waitFor(t, "pong", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "pong")
	})
	if r := h.input(t, "hello"); r.Action != agent.InputContinue {
		t.Errorf("hello: %+v", r)
	}
}

func driveInlineBash(t *testing.T) {
	h := startHost(t, "print", "inline-bash.ts")
	if r := h.input(t, "the answer is !{echo 42}"); r.Action != agent.InputTransform || r.Text != "the answer is 42" {
		t.Errorf("inline: %+v", r)
	}
}

// pirate: /pirate turns pirate mode on, which adds to the system prompt.
func drivePirate(t *testing.T) {
	h := startHost(t, "tui", "pirate.ts")
	ctx := t.Context()
	start := func() agent.AgentStartResult {
		r, err := h.ic.BeforeAgentStart(ctx, agent.AgentStartEvent{Prompt: "hi", Sections: []core.PromptSection{{Name: "base", Text: "You are cairn."}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := start(); len(r.Sections) != 0 {
		t.Errorf("before /pirate: %+v", r)
	}
	if r := h.input(t, "/pirate"); r.Action != agent.InputHandled {
		t.Fatalf("/pirate: %+v", r)
	}
	h.host.waitFor(t, "the notice", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Pirate mode enabled")
	})
	r := start()
	if len(r.Sections) != 1 || !strings.HasPrefix(r.Sections[0].Text, "IMPORTANT: You are now in PIRATE MODE") {
		t.Errorf("after /pirate: %+v", r)
	}
}

func driveStatusLine(t *testing.T) {
	h := startHost(t, "tui", "status-line.ts")
	h.host.waitFor(t, "the status", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.StatusChanged{Key: "status-demo", Text: "Ready"}))
	})
	driveStatusLineTurns(t, h)
}

// status-line: Ready at start, then the turn's progress (turn_start,
// observed, and turn_end, asked).
func driveStatusLineTurns(t *testing.T, h *harness) {
	h.host.events <- core.TurnStart{}
	h.host.waitFor(t, "the turn status", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.StatusChanged{Key: "status-demo", Text: "● Turn 1..."}))
	})
	if err := h.ic.TurnEnd(t.Context(), agent.TurnEndEvent{Message: &core.AssistantMessage{}}); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the turn's end", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.StatusChanged{Key: "status-demo", Text: "✓ Turn 1 complete"}))
	})
}

// model-status: a model change is told and shown in the status line.
func driveModelStatus(t *testing.T) {
	h := startHost(t, "tui", "model-status.ts")
	h.host.events <- core.ModelChanged{Model: core.Model{ID: "sonnet", Provider: "anthropic"}}
	h.host.waitFor(t, "the model shown", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Model: anthropic/sonnet") &&
			slices.Contains(shown, core.Event(core.StatusChanged{Key: "model", Text: "🤖 sonnet"}))
	})
}

// titlebar-spinner: the title spins while the agent works, and is plain
// again once it settles.
func driveTitlebarSpinner(t *testing.T) {
	h := startHost(t, "tui", "titlebar-spinner.ts")
	base := "π - " + filepath.Base(h.cwd)
	h.host.events <- core.AgentStart{}
	h.host.waitFor(t, "a spinning title", func(shown []core.Event, _ []string, _ []core.Question) bool {
		for _, e := range shown {
			if tc, ok := e.(core.TitleChanged); ok && strings.HasSuffix(tc.Title, " "+base) && tc.Title != base {
				return true
			}
		}
		return false
	})
	h.host.events <- core.Settled{}
	h.host.waitFor(t, "the plain title", func(shown []core.Event, _ []string, _ []core.Question) bool {
		tc, ok := shown[len(shown)-1].(core.TitleChanged)
		return ok && tc.Title == base
	})
}

func driveWidgetPlacement(t *testing.T) {
	h := startHost(t, "tui", "widget-placement.ts")
	h.host.waitFor(t, "both widgets", func(shown []core.Event, _ []string, _ []core.Question) bool {
		var above, below bool
		for _, e := range shown {
			if w, ok := e.(core.WidgetChanged); ok {
				above = above || (w.Key == "widget-above" && w.Placement == "" && slices.Equal(w.Lines, []string{"Above editor widget"}))
				below = below || (w.Key == "widget-below" && w.Placement == core.WidgetBelowEditor)
			}
		}
		return above && below
	})
}

// send-user-message: /ask sends a message when the agent is idle and
// refuses while it works; /steer and /followup queue theirs then.
// titlebar-spinner runs beside it to show when the host has been told
// the agent started (its title spins): the host tells every extension
// before it runs the handlers, so /ask after that sees a busy agent.
func driveSendUserMessage(t *testing.T) {
	h := startHost(t, "tui", "send-user-message.ts", "titlebar-spinner.ts")
	h.input(t, "/ask what time is it")
	h.input(t, "/followup and then?")
	h.host.waitFor(t, "both messages", func(_ []core.Event, sent []string, _ []core.Question) bool {
		return slices.Contains(sent, ":what time is it") && slices.Contains(sent, ":and then?")
	})
	h.host.events <- core.AgentStart{}
	h.host.waitFor(t, "the agent started", func(shown []core.Event, _ []string, _ []core.Question) bool {
		for _, e := range shown {
			if tc, ok := e.(core.TitleChanged); ok && !strings.HasPrefix(tc.Title, "π") {
				return true
			}
		}
		return false
	})
	h.input(t, "/ask now?")
	h.input(t, "/steer turn left")
	h.input(t, "/followup then stop")
	h.host.waitFor(t, "the busy agent refused and the queued messages", func(shown []core.Event, sent []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Agent is busy") && !slices.Contains(sent, ":now?") &&
			slices.Contains(sent, "steer:turn left") && slices.Contains(sent, "followUp:then stop")
	})
	h.host.events <- core.Settled{}
}

func driveTimedConfirm(t *testing.T) {
	h := startHost(t, "tui", "timed-confirm.ts")
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) { return core.Answer{Yes: true}, core.Answered }
	h.input(t, "/timed")
	h.host.waitFor(t, "the confirmation", func(shown []core.Event, _ []string, asked []core.Question) bool {
		return strings.Contains(notices(shown), "Confirmed by user!") && len(asked) == 1 && asked[0].Timeout > 0
	})
}

func driveTodo(t *testing.T) {
	h := startHost(t, "print", "todo.ts")
	if got := text(h.tool(t, "todo", `{"action": "add", "text": "write tests"}`)); !strings.Contains(got, "write tests") {
		t.Errorf("add: %q", got)
	}
	if got := text(h.tool(t, "todo", `{"action": "list"}`)); !strings.Contains(got, "write tests") {
		t.Errorf("list: %q", got)
	}
}

func driveDynamicTools(t *testing.T) {
	h := startHost(t, "tui", "dynamic-tools.ts")
	h.host.waitFor(t, "the session tool", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Registered dynamic tool: echo_session")
	})
	h.input(t, "/add-echo-tool shout")
	h.host.waitFor(t, "the new tool", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Registered dynamic tool: shout")
	})
	deadline := 200
	for h.m.Find("shout") == nil && deadline > 0 {
		<-h.m.Changed()
		deadline--
	}
	if got := text(h.tool(t, "shout", `{"message": "hey"}`)); !strings.Contains(got, "hey") {
		t.Errorf("shout: %q", got)
	}
}

func driveEventBus(t *testing.T) {
	h := startHost(t, "tui", "event-bus.ts")
	h.host.waitFor(t, "the start event received", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Event from event-bus-example: Session started")
	})
	h.input(t, "/emit hello there")
	h.host.waitFor(t, "the emitted event received", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Event from /emit command: hello there")
	})
}

// claude-rules: the rules in .claude/rules are found at start and listed
// in the system prompt.
func driveClaudeRules(t *testing.T) {
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, ".claude", "rules"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, ".claude", "rules", "style.md"), []byte("tabs"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostIn(t, cwd, nil, "tui", "claude-rules.ts")
	h.host.waitFor(t, "the rules found", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Found 1 rule(s) in .claude/rules/")
	})
	r, err := h.ic.BeforeAgentStart(t.Context(), agent.AgentStartEvent{Prompt: "hi", Sections: []core.PromptSection{{Name: "base", Text: "You are cairn."}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sections) != 1 || !strings.HasPrefix(r.Sections[0].Text, "## Project Rules") || !strings.Contains(r.Sections[0].Text, "- .claude/rules/style.md") {
		t.Errorf("sections %+v", r.Sections)
	}
}

func driveRPCDemo(t *testing.T) {
	h := startHost(t, "tui", "rpc-demo.ts")
	h.host.waitFor(t, "its title, status and widget", func(shown []core.Event, _ []string, _ []core.Question) bool {
		var title, status, widget bool
		for _, e := range shown {
			switch e := e.(type) {
			case core.TitleChanged:
				title = title || e.Title == "pi RPC Demo"
			case core.StatusChanged:
				status = status || (e.Key == "rpc-demo" && e.Text == "Turns: 0")
			case core.WidgetChanged:
				widget = widget || slices.Equal(e.Lines, []string{"--- RPC Extension UI Demo ---", "Loaded and ready."})
			}
		}
		return title && status && widget
	})
	h.host.answer = func(q core.Question) (core.Answer, core.Outcome) { return core.Answer{Value: "Block"}, core.Answered }
	if r := h.toolCall(t, "bash", `{"command": "rm -rf /tmp/x"}`); r.Decision != agent.CallBlock || r.Reason != "Blocked by user" {
		t.Errorf("rm -rf: %+v", r)
	}
}

func driveBashSpawnHook(t *testing.T) {
	h := startHost(t, "print", "bash-spawn-hook.ts")
	if got := text(h.tool(t, "bash", `{"command": "echo hook=$PI_SPAWN_HOOK"}`)); !strings.Contains(got, "hook=1") {
		t.Errorf("bash: %q", got)
	}
}

func driveToolOverride(t *testing.T) {
	h := startHost(t, "print", "tool-override.ts")
	f := filepath.Join(h.cwd, "notes.txt")
	if err := os.WriteFile(f, []byte("line one\nline two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := text(h.tool(t, "read", `{"path": "`+f+`"}`)); !strings.Contains(got, "line two") {
		t.Errorf("read: %q", got)
	}
}

// auto-commit-on-exit: when the session ends, the changes in the working
// tree are committed.
func driveAutoCommit(t *testing.T) {
	h := startHost(t, "print", "auto-commit-on-exit.ts")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = h.cwd
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
	if err := os.WriteFile(filepath.Join(h.cwd, "a.txt"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := h.ic.SessionEnd(t.Context(), agent.SessionEndEvent{Reason: agent.EndExit}); err != nil {
		t.Fatal(err)
	}
	if got := git("log", "--format=%s"); strings.TrimSpace(got) != "[pi] Work in progress" {
		t.Errorf("log: %q", got)
	}
}

// session-name: /session-name NAME names the session, and /session-name
// shows it.
func driveSessionName(t *testing.T) {
	h := startHost(t, "tui", "session-name.ts")
	h.input(t, "/session-name refactor auth")
	h.input(t, "/session-name")
	h.host.waitFor(t, "the name set and shown", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Session: refactor auth")
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if h.host.name != "refactor auth" {
		t.Errorf("session name %q", h.host.name)
	}
}
