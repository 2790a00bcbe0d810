package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
)

// blockRmHook is the path of a Claude Code PreToolUse script that refuses
// rm with exit status 2.
func blockRmHook(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "hooks", "block-rm.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hookSettings writes a settings.json in home with one PreToolUse hook
// for Bash.
func hookSettings(t *testing.T, home, command string, timeout float64) {
	t.Helper()
	settings := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "Bash",
		"hooks":   []any{map[string]any{"type": "command", "command": command, "timeout": timeout}},
	}}}}
	data, _ := json.Marshal(settings)
	writeFile(t, filepath.Join(home, "settings.json"), string(data))
}

// rmScript has the model remove victim, then list the directory, then
// answer.
const rmScript = `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "rm -f victim"}}]},
  {"content": [{"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"command": "echo listed > listed"}}]},
  {"text": "Done."}
]}`

// toolEnds returns the tool_execution_end events of json mode's output.
func toolEnds(t *testing.T, stdout string) map[string]map[string]any {
	t.Helper()
	ends := map[string]map[string]any{}
	for _, line := range strings.Split(stdout, "\n") {
		var e map[string]any
		if json.Unmarshal([]byte(line), &e) == nil && e["type"] == "tool_execution_end" {
			ends[e["toolCallId"].(string)] = e
		}
	}
	return ends
}

// TestPreToolUseHookBlocksRmInPrintAndJSONModes: the person's Claude Code
// hook refuses the model's rm even in yolo mode, the model reads the
// hook's reason, and other commands still run.
func TestPreToolUseHookBlocksRmInPrintAndJSONModes(t *testing.T) {
	for _, mode := range []string{"json", "text"} {
		t.Run(mode, func(t *testing.T) {
			script := blockRmHook(t)
			project := t.TempDir()
			t.Chdir(project)
			writeFile(t, filepath.Join(project, "victim"), "keep me")
			home := t.TempDir()
			hookSettings(t, home, "/bin/sh "+script, 10)
			vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(t, rmScript)}
			r := invoke(t, vars, nil, "--provider", "faux", "--no-session", "--approval", "yolo", "--mode", mode, "-p", "clean up")
			if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
				t.Fatalf("rm ran despite the hook:\n%s\n%s", r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(project, "listed")); err != nil {
				t.Errorf("the other command did not run:\n%s", r.stderr)
			}
			if mode == "json" {
				end := toolEnds(t, r.stdout)["c1"]
				text, _ := json.Marshal(end)
				if end["isError"] != true || !strings.Contains(string(text), "Blocked: rm is not allowed in this project") {
					t.Errorf("the model was not told the hook's reason: %s", text)
				}
			}
		})
	}
}

// TestHangingHookIsCutAndTheCallRefused: a PreToolUse hook that never
// answers is stopped at its time limit, and the call is refused saying so.
func TestHangingHookIsCutAndTheCallRefused(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(project, "victim"), "keep me")
	home := t.TempDir()
	hookSettings(t, home, "/bin/sleep 60", 0.5)
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(t, rmScript)}
	done := make(chan result, 1)
	go func() {
		done <- invoke(t, vars, nil, "--provider", "faux", "--no-session", "--approval", "yolo", "--mode", "json", "-p", "clean up")
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("cairn waited for the hanging hook")
	}
	if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
		t.Fatalf("rm ran although its hook did not answer:\n%s", r.stderr)
	}
	end := toolEnds(t, r.stdout)["c1"]
	text, _ := json.Marshal(end)
	if end["isError"] != true || !strings.Contains(string(text), "did not finish within 500ms and was stopped") {
		t.Errorf("result does not say the hook was cut at its limit: %s", text)
	}
}

// TestPreToolUseHookBlocksRmInRPCMode: the same hook, with cairn driven
// by a pi host over --mode rpc.
func TestPreToolUseHookBlocksRmInRPCMode(t *testing.T) {
	script := blockRmHook(t)
	project := t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(project, "victim"), "keep me")
	home := t.TempDir()
	hookSettings(t, home, "/bin/sh "+script, 10)
	c, _ := startBridgeChild(t, home, writeScript(t, rmScript), "--provider", "faux", "--mode", "rpc", "--no-session")
	c.send(`{"id":"p","type":"prompt","message":"clean up"}`)
	end := c.untilFrame("tool_execution_end", "agent_settled")
	text, _ := json.Marshal(end)
	if end["isError"] != true || !strings.Contains(string(text), "Blocked: rm is not allowed in this project") {
		t.Errorf("rm's result: %s", text)
	}
	c.untilFrame("agent_settled", "")
	if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
		t.Fatal("rm ran despite the hook")
	}
}

// hookSession is a session of cairn's real tools in project with the
// hooks of block (a settings "hooks" value) and a faux model playing
// responses, approvals in yolo mode.
func hookSession(t *testing.T, project, block string, responses ...faux.Response) *agent.Session {
	t.Helper()
	return hookSessionIn(t, approval.ModeYolo, project, block, responses...)
}

// hookSessionIn is hookSession in approval mode mode.
func hookSessionIn(t *testing.T, mode approval.Mode, project, block string, responses ...faux.Response) *agent.Session {
	t.Helper()
	cfg, warnings, err := hook.Parse("test", json.RawMessage(block))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	h := hook.New(cfg, hook.Options{Dir: project, Getenv: os.Getenv})
	gate, _ := approval.Open(approval.Config{Mode: mode, Dir: project})
	fp := faux.New(faux.Options{}, responses...)
	var s *agent.Session
	s, err = agent.New(agent.Config{Model: faux.Model, Tools: tools.NewIn(project, tools.NewWorkspace()), Approver: gate,
		Open:         func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
		Interceptors: hookInterceptors(h, gate.Mode, func(text string) { s.Notify(core.NotifyInfo, text) })})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// promptAndSettle sends text and returns the events up to agent_settled.
func promptAndSettle(t *testing.T, s *agent.Session, text string) []core.Event {
	t.Helper()
	events, stop := s.Subscribe()
	defer stop()
	if err := s.Prompt(text, nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	var got []core.Event
	for {
		select {
		case e := <-events:
			got = append(got, e)
			if _, ok := e.(core.Settled); ok {
				return got
			}
		case <-timeout:
			t.Fatal("the prompt did not settle")
		}
	}
}

func bashCall(id, command string) faux.Response {
	args, _ := json.Marshal(map[string]string{"command": command})
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash", Arguments: args}}}
}

// TestPreToolUseHookBlocksRmAtTheAgentLevel: the hook interceptors on a
// session of the real bash tool, without any front end.
func TestPreToolUseHookBlocksRmAtTheAgentLevel(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "victim"), "keep me")
	s := hookSession(t, project, `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/sh `+blockRmHook(t)+`"}]}]}`,
		bashCall("c1", "rm victim"), faux.Response{Text: "ok"})
	var end core.ToolExecutionEnd
	for _, e := range promptAndSettle(t, s, "clean") {
		if x, ok := e.(core.ToolExecutionEnd); ok {
			end = x
		}
	}
	if !end.Result.IsError || !strings.Contains(end.Result.Content[0].Text, "hook PreToolUse: Blocked: rm is not allowed") {
		t.Errorf("result %+v", end.Result)
	}
	if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
		t.Fatal("rm ran despite the hook")
	}
}

// TestClaudeCodeHookEvents: the other events, with scripts written as for
// Claude Code.
func TestClaudeCodeHookEvents(t *testing.T) {
	t.Run("UserPromptSubmit blocks with exit 2 and adds plain stdout", func(t *testing.T) {
		project := t.TempDir()
		s := hookSession(t, project, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command":
			"IFS= read -r in; case \"$in\" in *password*) echo 'no secrets in prompts' >&2; exit 2;; esac; echo 'The build is green.'"}]}]}`,
			faux.Response{Text: "ok"})
		evs := promptAndSettle(t, s, "my password is hunter2")
		if len(s.Messages()) != 0 || !hasNotice(evs, "no secrets in prompts") {
			t.Errorf("blocked prompt: %d messages; events %v", len(s.Messages()), evs)
		}
		promptAndSettle(t, s, "status?")
		msgs := s.Messages()
		if c, ok := msgs[1].(*core.CustomMessage); !ok || c.Content[0].Text != "The build is green." {
			t.Errorf("messages %+v", msgs)
		}
	})
	t.Run("PostToolUse feedback and context reach the model", func(t *testing.T) {
		project := t.TempDir()
		s := hookSession(t, project, `{"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
			"cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"lint failed\",\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"2 warnings\"}}'"}]}]}`,
			bashCall("c1", "true"), faux.Response{Text: "ok"})
		promptAndSettle(t, s, "go")
		var texts []string
		for _, m := range s.Messages() {
			if c, ok := m.(*core.CustomMessage); ok {
				texts = append(texts, c.Content[0].Text)
			}
		}
		if strings.Join(texts, "|") != "2 warnings|PostToolUse hook feedback:\nlint failed" {
			t.Errorf("context %q", texts)
		}
	})
	t.Run("Stop sends the agent back once", func(t *testing.T) {
		project := t.TempDir()
		s := hookSession(t, project, `{"Stop": [{"hooks": [{"type": "command", "command":
			"IFS= read -r in; case \"$in\" in *'\"stop_hook_active\":true'*) exit 0;; esac; echo 'run the tests first' >&2; exit 2"}]}]}`,
			faux.Response{Text: "done"}, faux.Response{Text: "tests pass"})
		promptAndSettle(t, s, "fix it")
		msgs := s.Messages()
		if len(msgs) != 4 || msgs[3].(*core.AssistantMessage).Text() != "tests pass" {
			t.Fatalf("messages %+v", msgs)
		}
		if c := msgs[2].(*core.CustomMessage); c.Content[0].Text != "Stop hook feedback:\nrun the tests first" {
			t.Errorf("continuation %q", c.Content[0].Text)
		}
	})
	t.Run("a failing UserPromptSubmit hook does not hold the prompt back", func(t *testing.T) {
		// As in Claude Code: exit 1 (here a missing interpreter, as when a
		// plugin's python is not installed) is a non-blocking error.
		project := t.TempDir()
		s := hookSession(t, project, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "no-such-python3 hook.py"}]}]}`,
			faux.Response{Text: "ok"})
		evs := promptAndSettle(t, s, "hello")
		if len(s.Messages()) != 2 || !hasNotice(evs, "no-such-python3") {
			t.Errorf("messages %d; events %v", len(s.Messages()), evs)
		}
	})
	t.Run("PostToolUseFailure hears of a failed call", func(t *testing.T) {
		project := t.TempDir()
		s := hookSession(t, project, `{"PostToolUseFailure": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
			"cat > seen; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUseFailure\",\"additionalContext\":\"see seen\"}}'"}]}]}`,
			bashCall("c1", "exit 3"), faux.Response{Text: "ok"})
		promptAndSettle(t, s, "go")
		seen, _ := os.ReadFile(filepath.Join(project, "seen"))
		if !strings.Contains(string(seen), `"hook_event_name":"PostToolUseFailure"`) || !strings.Contains(string(seen), `"error":`) {
			t.Errorf("the hook saw %s", seen)
		}
		found := false
		for _, m := range s.Messages() {
			if c, ok := m.(*core.CustomMessage); ok && c.Content[0].Text == "see seen" {
				found = true
			}
		}
		if !found {
			t.Errorf("its context did not reach the model: %+v", s.Messages())
		}
	})
	t.Run("PermissionRequest answers the approval question", func(t *testing.T) {
		// Shaped after the PermissionRequest example of Claude Code's hooks
		// reference: allow a command without the dialog, deny another.
		project := t.TempDir()
		s := hookSessionIn(t, approval.ModeDefault, project, `{"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
			"IFS= read -r in; case \"$in\" in *'rm '*) echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"no deleting\"}}}';; *) echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}';; esac"}]}]}`,
			bashCall("c1", "echo made > out"), bashCall("c2", "rm out"), faux.Response{Text: "ok"})
		evs := promptAndSettle(t, s, "go")
		for _, e := range evs {
			if q, ok := e.(core.Question); ok {
				t.Errorf("the person was asked: %+v", q)
			}
		}
		if data, _ := os.ReadFile(filepath.Join(project, "out")); string(data) != "made\n" {
			t.Errorf("out = %q (allowed echo should have run, denied rm not)", data)
		}
		found := false
		for _, m := range s.Messages() {
			if r, ok := m.(*core.ToolResultMessage); ok && r.ToolCallID == "c2" && strings.Contains(r.Text(), "no deleting") {
				found = true
			}
		}
		if !found {
			t.Errorf("the model did not read the deny message: %+v", s.Messages())
		}
	})
	t.Run("updatedInput rewrites the call in Claude Code's terms", func(t *testing.T) {
		project := t.TempDir()
		s := hookSession(t, project, `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
			"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo rewritten > out\"}}}'"}]}]}`,
			bashCall("c1", "echo original > out"), faux.Response{Text: "ok"})
		promptAndSettle(t, s, "go")
		if data, _ := os.ReadFile(filepath.Join(project, "out")); string(data) != "rewritten\n" {
			t.Errorf("out = %q", data)
		}
	})
}

func hasNotice(evs []core.Event, text string) bool {
	for _, e := range evs {
		if n, ok := e.(core.Notice); ok && strings.Contains(n.Message, text) {
			return true
		}
	}
	return false
}

// TestClaudeUserSettingsHooksRun: the hooks of the person's own
// ~/.claude/settings.json run in cairn, unless cairn's settings say
// "readClaudeUserSettings": false.
func TestClaudeUserSettingsHooksRun(t *testing.T) {
	script := blockRmHook(t)
	hooks := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/sh ` + script + `"}]}]}}`
	run := func(t *testing.T, project, home, cairnDir string) bool {
		t.Helper()
		t.Chdir(project)
		writeFile(t, filepath.Join(project, "victim"), "keep me")
		vars := map[string]string{"CAIRN_DIR": cairnDir, "HOME": home, "CAIRN_FAUX_SCRIPT": writeScript(t, rmScript)}
		invoke(t, vars, nil, "--provider", "faux", "--no-session", "--approval", "yolo", "--mode", "json", "-p", "go")
		_, err := os.Stat(filepath.Join(project, "victim"))
		return err == nil
	}
	home, cairnDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), hooks)
	if !run(t, t.TempDir(), home, cairnDir) {
		t.Fatal("the hook of ~/.claude/settings.json did not run")
	}
	writeFile(t, filepath.Join(cairnDir, "settings.json"), `{"hooks": {"readClaudeUserSettings": false}}`)
	if run(t, t.TempDir(), home, cairnDir) {
		t.Fatal("readClaudeUserSettings: false did not keep it from running")
	}
}

// TestProjectHooksNeedTrustAndClaudeHooksAnOptIn: a project's
// .cairn/settings.json hooks run only once it is trusted, and its
// .claude/settings.json hooks only when the person opted in as well.
func TestProjectHooksNeedTrustAndClaudeHooksAnOptIn(t *testing.T) {
	script := blockRmHook(t)
	hooks := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/sh ` + script + `"}]}]}}`
	run := func(t *testing.T, project, home string, args ...string) (blocked bool, r result) {
		t.Helper()
		t.Chdir(project)
		writeFile(t, filepath.Join(project, "victim"), "keep me")
		vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(t, rmScript)}
		r = invoke(t, vars, nil, append([]string{"--provider", "faux", "--no-session", "--approval", "yolo", "--mode", "json", "-p", "go"}, args...)...)
		_, err := os.Stat(filepath.Join(project, "victim"))
		return err == nil, r
	}

	t.Run("cairn project settings", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		writeFile(t, filepath.Join(project, ".cairn", "settings.json"), hooks)
		if blocked, r := run(t, project, home); blocked {
			t.Fatalf("an untrusted project's hook ran:\n%s", r.stderr)
		}
		if blocked, r := run(t, project, home, "--trust-project"); !blocked {
			t.Fatalf("a trusted project's hook did not run:\n%s", r.stderr)
		}
	})
	t.Run("claude project settings", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		writeFile(t, filepath.Join(project, ".claude", "settings.json"), hooks)
		if blocked, r := run(t, project, home, "--trust-project"); blocked {
			t.Fatalf(".claude/settings.json was read without the opt-in:\n%s", r.stderr)
		}
		writeFile(t, filepath.Join(home, "settings.json"), `{"hooks": {"readClaudeProjectSettings": true}}`)
		blocked, r := run(t, project, home)
		if blocked {
			t.Fatalf("an untrusted project's .claude hooks ran:\n%s", r.stderr)
		}
		if !strings.Contains(r.stderr, ".claude/settings.json") {
			t.Errorf("the trust warning does not name .claude/settings.json:\n%s", r.stderr)
		}
		if blocked, r := run(t, project, home, "--trust-project"); !blocked {
			t.Fatalf("the opted-in, trusted project's .claude hooks did not run:\n%s", r.stderr)
		}
	})
}

// TestClaudeUserPermissions: the permission rules of the person's
// ~/.claude/settings.json hold in cairn: a deny rule refuses even in
// yolo mode, an allow rule saves the question a -p run cannot ask.
func TestClaudeUserPermissions(t *testing.T) {
	run := func(t *testing.T, settings, script string, args ...string) (string, result) {
		t.Helper()
		project, home := t.TempDir(), t.TempDir()
		t.Chdir(project)
		writeFile(t, filepath.Join(project, "victim"), "keep me")
		writeFile(t, filepath.Join(home, ".claude", "settings.json"), settings)
		vars := map[string]string{"CAIRN_DIR": t.TempDir(), "HOME": home, "CAIRN_FAUX_SCRIPT": writeScript(t, script)}
		r := invoke(t, vars, nil, append([]string{"--provider", "faux", "--no-session", "--mode", "json", "-p", "go"}, args...)...)
		return project, r
	}
	t.Run("deny", func(t *testing.T) {
		project, r := run(t, `{"permissions": {"deny": ["Bash(rm:*)"]}}`, rmScript, "--approval", "yolo")
		if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
			t.Fatalf("the deny rule did not hold:\n%s", r.stderr)
		}
		if !strings.Contains(r.stdout, "deny Bash(rm:*)") {
			t.Errorf("the model was not told why:\n%.2000s", r.stdout)
		}
	})
	// cairn's command rules narrow Claude Code's: a prefix rule takes
	// operands only for programs that read them, such as grep.
	grep := `{"responses": [{"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "grep keep victim"}}]}, {"text": "Done."}]}`
	t.Run("allow", func(t *testing.T) {
		_, r := run(t, `{"permissions": {"allow": ["Bash(grep:*)"]}}`, grep)
		if !strings.Contains(r.stdout, `"text":"keep me`) {
			t.Fatalf("the allow rule did not hold:\n%s\n%s", r.stderr, r.stdout[max(0, len(r.stdout)-1500):])
		}
	})
	t.Run("without the rule it is asked, and refused in -p", func(t *testing.T) {
		_, r := run(t, `{"permissions": {"allow": ["Bash(git status:*)"]}}`, grep)
		if strings.Contains(r.stdout, `"text":"keep me`) || !strings.Contains(r.stdout, "needs approval") {
			t.Fatalf("grep ran without a rule:\n%s", r.stderr)
		}
	})
}

// A hook matcher written for Claude Code's name of a hyphenated MCP server
// (the mcp__sequential-thinking__.*) selects cairn's tool, whose
// name keeps the hyphen.
func TestHookMatcherSelectsHyphenatedMCPTool(t *testing.T) {
	m, err := hook.ParseMatcher("mcp__sequential-thinking__.*")
	if err != nil {
		t.Fatal(err)
	}
	name := mcp.ToolName("sequential-thinking", "sequentialthinking")
	if !m.Match(hook.ToolCall(name, json.RawMessage(`{}`), "/p").Names...) {
		t.Errorf("the matcher does not select %s", name)
	}
}
