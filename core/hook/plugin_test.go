package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writePlugin lays out a plugin at a new directory: hooks/hooks.json with
// config, and the scripts given (name to body), executable.
func writePlugin(t *testing.T, config string, scripts map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(PluginHooksFile(root), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(root, "hooks", name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// securityGuidance is shaped after the hooks.json of Anthropic's
// security-guidance plugin (github.com/anthropics/claude-code,
// plugins/security-guidance/hooks/hooks.json; © Anthropic PBC, not copied:
// same events, matchers and fields, our own text): ${CLAUDE_PLUGIN_ROOT}
// in quoted commands, a 180 s timeout, "if" rules on Bash, asyncRewake
// with rewakeMessage and rewakeSummary, and a description beside hooks.
const securityGuidance = `{
  "description": "pattern warnings on edits, review of commits in the background",
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" setup", "timeout": 180}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" prompt"}]}],
    "PostToolUse": [
      {"hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" edit"}], "matcher": "Edit|Write|MultiEdit|NotebookEdit"},
      {"hooks": [
        {"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" commit", "if": "Bash(git commit:*)",
         "asyncRewake": true, "rewakeMessage": "Review of the commit:", "rewakeSummary": "Commit review found issues"},
        {"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" push", "if": "Bash(git push:*)",
         "asyncRewake": true, "rewakeMessage": "Review of the push:", "rewakeSummary": "Push review found issues"}
      ], "matcher": "Bash"}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh\" stop", "asyncRewake": true, "rewakeMessage": "Review:"}]}]
  }
}`

// runScript answers as the plugin's hook does: JSON with a "metrics"
// member Claude Code ignores, and for a commit a finding on stderr with
// exit 2 (which wakes the model). It notes each run in $CLAUDE_PLUGIN_ROOT/ran.
const runScript = `#!/bin/bash
cat > /dev/null
echo "$1" >> "$CLAUDE_PLUGIN_ROOT/ran"
if [ "$1" = commit ]; then echo "hard-coded secret in config.py" >&2; exit 2; fi
printf '{"metrics": {"pv": "2.0.0", "skipped": true, "skip_reason": 21}}\n'
`

func TestSecurityGuidancePluginHooksRun(t *testing.T) {
	root := writePlugin(t, securityGuidance, map[string]string{"run.sh": runScript})
	cfg, warnings := LoadPlugin(root, PluginHooksFile(root))
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	h := New(cfg, Options{Dir: t.TempDir(), Getenv: os.Getenv})
	ctx := context.Background()
	prompt := "hi"
	if a, err := h.Fire(ctx, Input{HookEventName: UserPromptSubmit, Prompt: &prompt}); err != nil || a.Block {
		t.Fatalf("prompt: %+v %v (a \"metrics\" member must be ignored)", a, err)
	}
	bash := func(cmd string) Input {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return Input{HookEventName: PostToolUse, ToolName: "Bash", ToolInput: in}
	}
	if _, err := h.Fire(ctx, bash("git status"), "Bash", "bash"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Fire(ctx, bash("cd src && git commit -m wip"), "Bash", "bash"); err != nil {
		t.Fatal(err)
	}
	h.Wait() // for the async review
	defer h.Close()
	ran, _ := os.ReadFile(filepath.Join(root, "ran"))
	if got := strings.Fields(string(ran)); strings.Join(got, " ") != "prompt commit" {
		t.Errorf("hooks that ran: %q, want the prompt's and the commit's only", got)
	}
	a, err := h.Fire(ctx, Input{HookEventName: UserPromptSubmit, Prompt: &prompt})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Context) == 0 || a.Context[0] != "Review of the commit:\nhard-coded secret in config.py" {
		t.Errorf("the async finding did not reach the next prompt: %q", a.Context)
	}
}

// superpowersHooks is shaped after obra/superpowers' hooks/hooks.json
// (MIT, github.com/obra/superpowers): a SessionStart hook for startup,
// clear and compact, a quoted ${CLAUDE_PLUGIN_ROOT} path, "shell": "bash"
// and "async": false.
const superpowersHooks = `{
  "hooks": {
    "SessionStart": [
      {"matcher": "startup|clear|compact",
       "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd\" session-start", "shell": "bash", "async": false}]}
    ]
  }
}`

// sessionStartScript answers as superpowers' session-start does: when
// CLAUDE_PLUGIN_ROOT is set, hookSpecificOutput.additionalContext with a
// skill's text; otherwise a top-level additionalContext Claude Code
// would not read.
const sessionStartScript = `#!/usr/bin/env bash
ctx="You have superpowers: $(cat "$CLAUDE_PLUGIN_ROOT/skill.txt")"
if [ -n "${CLAUDE_PLUGIN_ROOT:-}" ]; then
  printf '{\n  "hookSpecificOutput": {\n    "hookEventName": "SessionStart",\n    "additionalContext": "%s"\n  }\n}\n' "$ctx"
else
  printf '{"additionalContext": "%s"}\n' "$ctx"
fi
`

func TestSuperpowersSessionStartReachesTheModel(t *testing.T) {
	root := writePlugin(t, superpowersHooks, map[string]string{"run-hook.cmd": sessionStartScript})
	if err := os.WriteFile(filepath.Join(root, "skill.txt"), []byte("use skills"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, warnings := LoadPlugin(root, PluginHooksFile(root))
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	h := New(cfg, Options{Dir: t.TempDir(), Getenv: os.Getenv})
	defer h.Close()
	a, err := h.Fire(context.Background(), Input{HookEventName: SessionStart, Source: "startup"}, "startup")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Context) != 1 || a.Context[0] != "You have superpowers: use skills" {
		t.Errorf("context %q", a.Context)
	}
}

func TestOnceHookRunsOncePerSession(t *testing.T) {
	m, _ := ParseMatcher("")
	dir := t.TempDir()
	h := New(Config{Events: map[Event][]Group{UserPromptSubmit: {{Matcher: m, Hooks: []Command{{Command: "echo x >> ran", Timeout: 10 * time.Second, Once: true}}}}}},
		Options{Dir: dir, Getenv: os.Getenv})
	defer h.Close()
	p := "p"
	for range 3 {
		if _, err := h.Fire(context.Background(), Input{HookEventName: UserPromptSubmit, Prompt: &p}); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "ran")); string(data) != "x\n" {
		t.Errorf("ran %q, want once", data)
	}
}
