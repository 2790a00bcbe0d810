package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	shell.RunIfReaper()
	goleak.VerifyTestMain(m)
}

func TestMatcher(t *testing.T) {
	cases := []struct {
		matcher string
		names   []string
		want    bool
	}{
		{"", []string{"Bash", "bash"}, true},
		{"*", []string{"anything"}, true},
		{"Bash", []string{"Bash", "bash"}, true},
		{"Bash", []string{"BashOutput", "bash_output"}, false},
		{"bash", []string{"Bash", "bash"}, true},
		{"Edit|Write", []string{"Write", "write"}, true},
		{"Edit|Write", []string{"MultiEdit", "edit", "Edit"}, true},
		{"Edit|Write", []string{"Read", "read"}, false},
		{"Notebook.*", []string{"NotebookEdit"}, true},
		{"mcp__github__.*", []string{"mcp__github__create_issue"}, true},
		{"mcp__github__.*", []string{"mcp__gitlab__create_issue"}, false},
		{"mcp__github", []string{"mcp__github__create_issue"}, false}, // exact, as in Claude Code
		{"^Bash$", []string{"Bash"}, true},
		{"^Bash$", []string{"bash"}, false}, // regular expressions are case-sensitive
		{"Glob", []string{"Glob", "find"}, true},
		{"startup", []string{"startup"}, true},
	}
	for _, c := range cases {
		m, err := ParseMatcher(c.matcher)
		if err != nil {
			t.Fatalf("%q: %v", c.matcher, err)
		}
		if got := m.Match(c.names...); got != c.want {
			t.Errorf("%q matches %v = %v, want %v", c.matcher, c.names, got, c.want)
		}
	}
	if _, err := ParseMatcher("(?=Bash)"); err == nil {
		t.Error("a lookahead, which Go cannot read, was accepted")
	}
}

func TestToolCallUsesClaudeCodesNamesAndFields(t *testing.T) {
	cases := []struct {
		tool, args, name, input string
	}{
		{"bash", `{"command":"ls","timeout":5}`, "Bash", `{"command":"ls","timeout":5000}`},
		{"read", `{"path":"a.go","offset":3}`, "Read", `{"file_path":"/p/a.go","offset":3}`},
		{"write", `{"path":"/abs/b","content":"x"}`, "Write", `{"content":"x","file_path":"/abs/b"}`},
		{"edit", `{"path":"c","edits":[{"oldText":"a","newText":"b"}]}`, "Edit", `{"file_path":"/p/c","new_string":"b","old_string":"a","replace_all":false}`},
		{"edit", `{"path":"c","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "MultiEdit",
			`{"edits":[{"new_string":"b","old_string":"a","replace_all":false},{"new_string":"d","old_string":"c","replace_all":false}],"file_path":"/p/c"}`},
		{"grep", `{"pattern":"x","ignoreCase":true}`, "Grep", `{"-i":true,"pattern":"x"}`},
		{"find", `{"pattern":"*.go"}`, "Glob", `{"pattern":"*.go"}`},
		{"ls", `{"path":"sub"}`, "LS", `{"path":"/p/sub"}`},
		{"mcp__gh__issue", `{"title":"t"}`, "mcp__gh__issue", `{"title":"t"}`},
		{"mcp_call", `{"tool":"mcp__gh__issue","arguments":{"title":"t"}}`, "mcp__gh__issue", `{"title":"t"}`},
	}
	for _, c := range cases {
		got := ToolCall(c.tool, json.RawMessage(c.args), "/p")
		if got.Name != c.name || string(got.Input) != c.input {
			t.Errorf("%s %s = %s %s, want %s %s", c.tool, c.args, got.Name, got.Input, c.name, c.input)
		}
		if c.tool != c.name && (len(got.Names) < 2 || got.Names[1] != c.tool) {
			t.Errorf("%s: names %v lack cairn's", c.tool, got.Names)
		}
	}
}

func TestToolArgumentsReadsUpdatedInputBack(t *testing.T) {
	cases := []struct{ tool, updated, want string }{
		{"bash", `{"command":"ls -la","timeout":2000}`, `{"command":"ls -la","timeout":2}`},
		{"read", `{"file_path":"/p/a"}`, `{"path":"/p/a"}`},
		{"edit", `{"file_path":"/p/c","old_string":"a","new_string":"b"}`, `{"edits":[{"newText":"b","oldText":"a"}],"path":"/p/c"}`},
	}
	for _, c := range cases {
		got, err := ToolArguments(c.tool, nil, json.RawMessage(c.updated))
		if err != nil || string(got) != c.want {
			t.Errorf("%s %s = %s, %v; want %s", c.tool, c.updated, got, err, c.want)
		}
	}
	if got, err := ToolArguments("mcp_call", json.RawMessage(`{"tool":"mcp__gh__issue","arguments":{}}`), json.RawMessage(`{"title":"u"}`)); err != nil || string(got) != `{"arguments":{"title":"u"},"tool":"mcp__gh__issue"}` {
		t.Errorf("mcp_call: %s, %v", got, err)
	}
	if _, err := ToolArguments("edit", nil, json.RawMessage(`{"file_path":"x","old_string":"a","new_string":"b","replace_all":true}`)); err == nil {
		t.Error("replace_all, which cairn's edit cannot do, was accepted")
	}
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name  string
		event Event
		r     Result
		want  Answer
		err   string
	}{
		{"exit 0 says nothing", PreToolUse, Result{Stdout: "checked\n"}, Answer{}, ""},
		{"exit 2 blocks with stderr", PreToolUse, Result{Code: 2, Stderr: "no rm\n"}, Answer{Block: true, Reason: "no rm"}, ""},
		{"exit 2 of a notification only tells", Notification, Result{Code: 2, Stderr: "hm"}, Answer{Messages: []string{"hm"}}, ""},
		{"exit 1 fails", PreToolUse, Result{Code: 1, Stderr: "jq: not found"}, Answer{}, "exited with status 1: jq: not found"},
		{"timeout fails", PreToolUse, Result{Failure: "did not finish"}, Answer{}, "did not finish"},
		{"deny", PreToolUse, Result{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
			Answer{Block: true, Reason: "no"}, ""},
		{"ask", PreToolUse, Result{Stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`},
			Answer{Permission: "ask", PermissionReason: "sure?"}, ""},
		{"old approve", PreToolUse, Result{Stdout: `{"decision":"approve","reason":"fine"}`}, Answer{Permission: "allow", PermissionReason: "fine"}, ""},
		{"prompt context", UserPromptSubmit, Result{Stdout: "today is Friday\n"}, Answer{Context: []string{"today is Friday"}}, ""},
		{"stop blocks", Stop, Result{Stdout: `{"decision":"block","reason":"tests fail"}`}, Answer{Block: true, Reason: "tests fail"}, ""},
		{"continue false", UserPromptSubmit, Result{Stdout: `{"continue":false,"stopReason":"later"}`}, Answer{Halt: true, HaltReason: "later"}, ""},
		// Claude Code ignores members it does not know; a known member's
		// misspelt value is still refused.
		{"unknown member ignored", PreToolUse, Result{Stdout: `{"decison":"block","metrics":{"pv":"2.0.0"}}`}, Answer{}, ""},
		{"misspelt decision", PreToolUse, Result{Stdout: `{"decision":"blok"}`}, Answer{}, `decision "blok"`},
		{"unknown member in hookSpecificOutput", SessionStart, Result{Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hi","extra":1}}`},
			Answer{Context: []string{"hi"}}, ""},
		{"permission allow", PermissionRequest, Result{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
			Answer{Permission: "allow"}, ""},
		{"permission deny", PermissionRequest, Result{Stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
			Answer{Block: true, Reason: "no"}, ""},
		{"permission exit 2", PermissionRequest, Result{Code: 2, Stderr: "never"}, Answer{Block: true, Reason: "never"}, ""},
		{"permission misspelt", PermissionRequest, Result{Stdout: `{"hookSpecificOutput":{"decision":{"behavior":"alow"}}}`}, Answer{}, `behavior "alow"`},
		{"permission new input", PermissionRequest, Result{Stdout: `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`}, Answer{}, "not supported"},
		{"decision elsewhere", PreToolUse, Result{Stdout: `{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`}, Answer{}, "for PermissionRequest"},
		{"failure context", PostToolUseFailure, Result{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"try -v"}}`},
			Answer{Context: []string{"try -v"}}, ""},
		{"bad JSON", PreToolUse, Result{Stdout: `{"decision":`}, Answer{}, "cannot be read"},
		{"wrong event", PostToolUse, Result{Stdout: `{"hookSpecificOutput":{"permissionDecision":"allow"}}`}, Answer{}, "for PreToolUse"},
		{"bad decision", PreToolUse, Result{Stdout: `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`}, Answer{}, "want allow, deny or ask"},
	}
	for _, c := range cases {
		got, err := Decode(c.event, c.r)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(c.want)
		if string(g) != string(w) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, w)
		}
	}
}

func TestParseWarnsAboutWhatItCannotRun(t *testing.T) {
	cfg, warnings, err := Parse("s.json", json.RawMessage(`{
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard", "timeout": 5}, {"type": "prompt", "prompt": "is it ok?"}]},
		               {"matcher": "(?<=x)", "hooks": [{"type": "command", "command": "never"}]}],
		"SubagentStop": [{"hooks": [{"type": "command", "command": "x"}]}],
		"PostToolUse": [{"hooks": [{"type": "command", "command": "y", "if": "Bash(", "async": true}, {"type": "command", "command": "z", "shell": "powershell"}]}],
		"readClaudeProjectSettings": true}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Events[PreToolUse]) != 1 || len(cfg.Events[PreToolUse][0].Hooks) != 1 || cfg.Events[PreToolUse][0].Hooks[0].Timeout != 5*time.Second || !cfg.ReadClaudeProjectSettings {
		t.Errorf("config %+v", cfg)
	}
	joined := strings.Join(warnings, "\n")
	if hs := cfg.Events[PostToolUse][0].Hooks; len(hs) != 1 || hs[0].If != nil || !hs[0].Async {
		t.Errorf("a hook with an \"if\" cairn cannot read should run without it: %+v", hs)
	}
	for _, want := range []string{"SubagentStop", "subagents do not fire hooks", `type "command" only`, "not a regular expression", "runs for every call", `not "powershell"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if _, _, err := Parse("s.json", json.RawMessage(`{"PreToolUse": [{"matcher": "Bash", "hook": []}]}`)); err == nil {
		t.Error("a misspelt key was accepted")
	}
}

// A Claude Code settings file with "disableAllHooks": true (Claude Code's
// settings reference) runs none of its hooks, and says so.
func TestDisableAllHooks(t *testing.T) {
	cfg, warnings, err := ParseSettings("s.json", []byte(`{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`))
	if err != nil || !cfg.Empty() || len(warnings) != 1 || !strings.Contains(warnings[0], "disableAllHooks") {
		t.Errorf("config %+v, warnings %v, %v", cfg, warnings, err)
	}
}

// fire runs one hook command for event e with a tool name.
func fire(t *testing.T, dir, command string, timeout time.Duration, e Event, getenv func(string) string) (Answer, error) {
	t.Helper()
	m, _ := ParseMatcher("")
	h := New(Config{Events: map[Event][]Group{e: {{Matcher: m, Hooks: []Command{{Command: command, Timeout: timeout, Origin: "test"}}}}}},
		Options{Dir: dir, Getenv: getenv})
	return h.Fire(context.Background(), Input{HookEventName: e, ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`)}, "Bash")
}

func TestFireGivesClaudeCodesInputAndASanitisedEnvironment(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seen")
	env := map[string]string{"PATH": os.Getenv("PATH"), "ANTHROPIC_API_KEY": "sk-secret", "HOME": "/home/x"}
	dir := t.TempDir()
	_, err := fire(t, dir, `cat > `+out+`; echo "KEY=${ANTHROPIC_API_KEY:-none} DIR=$CLAUDE_PROJECT_DIR" >> `+out, 10*time.Second, PreToolUse,
		func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	seen := string(data)
	for _, want := range []string{`"hook_event_name":"PreToolUse"`, `"tool_name":"Bash"`, `"tool_input":{"command":"ls"}`, "KEY=none", "DIR=" + dir + "\n"} {
		if !strings.Contains(seen, want) {
			t.Errorf("the hook saw %s\nwant it to contain %s", seen, want)
		}
	}
}

func TestFireCutsAHangingHookAtItsLimit(t *testing.T) {
	_, err := fire(t, t.TempDir(), "sleep 60", 200*time.Millisecond, PreToolUse, os.Getenv)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms and was stopped") {
		t.Errorf("error %v", err)
	}
}

func TestFireBoundsOutput(t *testing.T) {
	_, err := fire(t, t.TempDir(), "head -c 2000000 /dev/zero", 10*time.Second, PreToolUse, os.Getenv)
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("error %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "{}", `{"decision":"block","reason":"x"}`, `{"continue":false}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","updatedInput":{"command":"x"},"additionalContext":"c"}}`,
		"plain text", `{"decision":`} {
		f.Add(s, 0, "")
		f.Add(s, 2, "reason")
	}
	f.Fuzz(func(t *testing.T, stdout string, code int, stderr string) {
		for _, e := range Events {
			a, err := Decode(e, Result{Code: code, Stdout: stdout, Stderr: stderr})
			if err != nil && (a.Block || a.Permission != "" || a.UpdatedInput != nil) {
				t.Fatalf("%s: an error that also decided: %+v", e, a)
			}
			if a.Block && strings.TrimSpace(a.Reason) == "" {
				t.Fatalf("%s: a block without a reason", e)
			}
			if a.Permission != "" && e != PreToolUse {
				t.Fatalf("%s: a permission decision", e)
			}
		}
	})
}

func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"", "*", "Bash", "Edit|Write", "mcp__.*", "^Bash$", "(", "a|", "[[:alpha:]]+"} {
		f.Add(s, "Bash")
	}
	f.Fuzz(func(t *testing.T, matcher, name string) {
		m, err := ParseMatcher(matcher)
		if err != nil {
			return // an invalid matcher is reported and never used
		}
		got := m.Match(name)
		if (matcher == "" || matcher == "*") && !got {
			t.Fatalf("%q does not match %q", matcher, name)
		}
		if plainMatcher(matcher) && matcher != "" {
			want := false
			for _, part := range strings.Split(matcher, "|") {
				want = want || part == name
			}
			if got != want {
				t.Fatalf("plain %q matches %q = %v, want %v", matcher, name, got, want)
			}
		}
		if m.Match(name) != got {
			t.Fatal("matching is not stable")
		}
	})
}

// TestFireIgnoresMatchersWhereClaudeCodeHasNone: a matcher written for a
// UserPromptSubmit hook (which Claude Code ignores) does not keep it from
// running.
func TestFireIgnoresMatchersWhereClaudeCodeHasNone(t *testing.T) {
	m, _ := ParseMatcher("Bash")
	h := New(Config{Events: map[Event][]Group{UserPromptSubmit: {{Matcher: m, Hooks: []Command{{Command: "echo 'no' >&2; exit 2", Timeout: 10 * time.Second}}}}}},
		Options{Dir: t.TempDir(), Getenv: os.Getenv})
	prompt := "hi"
	a, err := h.Fire(context.Background(), Input{HookEventName: UserPromptSubmit, Prompt: &prompt})
	if err != nil || !a.Block || a.Reason != "no" {
		t.Errorf("answer %+v, %v", a, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":1}]}]}`,
		`{"Stop":[{"hooks":[{"type":"prompt"}]}],"readClaudeProjectSettings":true}`, `{"PreToolUse":[{"matcher":"(","hooks":[]}]}`, `[]`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		cfg, _, err := Parse("fuzz", json.RawMessage(block))
		if err != nil {
			return
		}
		for e, groups := range cfg.Events {
			for _, g := range groups {
				for _, c := range g.Hooks {
					if strings.TrimSpace(c.Command) == "" || c.Timeout <= 0 || c.Timeout > maxTimeout {
						t.Fatalf("%s: hook %+v", e, c)
					}
				}
			}
		}
	})
}

func FuzzToolCall(f *testing.F) {
	for _, c := range [][2]string{{"bash", `{"command":"ls","timeout":3}`}, {"edit", `{"path":"a","edits":[{"oldText":"x","newText":"y"}]}`},
		{"read", `{"path":"a"}`}, {"mcp_call", `{"tool":"mcp__a__b","arguments":{"x":1}}`}, {"grep", `{"pattern":"p","ignoreCase":true}`}, {"edit", `[]`}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		tc := ToolCall(name, json.RawMessage(args), "/p")
		if !slices.Contains(tc.Names, tc.Name) {
			t.Fatalf("names %v lack %q", tc.Names, tc.Name)
		}
		if _, ok := claudeNames[name]; ok && !slices.Contains(tc.Names, name) {
			t.Fatalf("names %v lack cairn's %q", tc.Names, name)
		}
		_, _ = ToolArguments(name, json.RawMessage(args), tc.Input)
	})
}
