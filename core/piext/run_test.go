package piext

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
)

// plan-mode: `--plan` on the command line starts it in plan mode
// (getFlag("plan") at session_start), where a destructive command is
// blocked; without the flag it is not. cairn checks the command line
// against the flags it registered.
func drivePlanMode(t *testing.T) {
	h := startHostFlags(t, t.TempDir(), nil, nil, []extension.Flag{{Name: "plan"}}, "tui", "plan-mode")
	if r := h.toolCall(t, "bash", `{"command": "rm -rf build"}`); r.Decision != agent.CallBlock || !strings.Contains(r.Reason, "Plan mode: command blocked") {
		t.Errorf("--plan: rm -rf went through: %+v", r)
	}
	if r := h.toolCall(t, "bash", `{"command": "ls -la"}`); r.Decision == agent.CallBlock {
		t.Errorf("--plan: ls blocked: %+v", r)
	}
	if err := h.m.CheckFlags([]extension.Flag{{Name: "plan"}}); err != nil {
		t.Errorf("--plan refused: %v", err)
	}
	for flag, want := range map[extension.Flag]string{
		{Name: "plan", Value: "now", HasValue: true, Taken: true}: `--plan is a switch (extension pi:plan-mode) and takes no value, but was given "now"`,
		{Name: "frobnicate"}: "unknown flag --frobnicate: neither cairn nor an extension it runs knows it",
	} {
		if err := h.m.CheckFlags([]extension.Flag{flag}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", flag, err, want)
		}
	}

	h = startHost(t, "tui", "plan-mode")
	if r := h.toolCall(t, "bash", `{"command": "rm -rf build"}`); r.Decision == agent.CallBlock {
		t.Errorf("no --plan: blocked: %+v", r)
	}
	// Its shortcut, ctrl+alt+p, toggles plan mode.
	if got := h.m.Shortcuts(); len(got) != 1 || got[0].Key != "ctrl+alt+p" || got[0].Extension != "pi:plan-mode" {
		t.Fatalf("shortcuts %+v", got)
	}
	if err := h.m.RunShortcut(t.Context(), "ctrl+alt+p"); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "plan mode on", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Plan mode enabled")
	})
	if r := h.toolCall(t, "bash", `{"command": "rm -rf build"}`); r.Decision != agent.CallBlock {
		t.Errorf("after ctrl+alt+p: rm -rf went through: %+v", r)
	}
	if err := h.m.RunShortcut(t.Context(), "ctrl+alt+q"); err == nil {
		t.Error("a key no extension registered ran")
	}
}

// ssh: `--ssh host` runs read, write, edit and bash on the remote, through
// `ssh HOST COMMAND`; here a stand-in ssh runs the command in another
// directory (the "remote"), so no sshd is needed.
func driveSSH(t *testing.T) {
	bin, remote, local := t.TempDir(), t.TempDir(), t.TempDir()
	standIn := "#!/bin/sh\n# ssh HOST COMMAND, run in $FAKE_REMOTE\ncd \"$FAKE_REMOTE\" && exec sh -c \"$2\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(standIn), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(remote, "notes.txt"), []byte("on the remote\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "FAKE_REMOTE": remote}
	h := startHostFlags(t, local, env, nil, []extension.Flag{{Name: "ssh", Value: "dev@box", HasValue: true, Taken: true}}, "tui", "ssh.ts")
	h.host.waitFor(t, "the SSH notice", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "SSH mode: dev@box:"+remote)
	})
	if got := text(h.tool(t, "read", `{"path": "notes.txt"}`)); !strings.Contains(got, "on the remote") {
		t.Errorf("read: %q", got)
	}
	if got := text(h.tool(t, "bash", `{"command": "pwd"}`)); !strings.Contains(got, remote) {
		t.Errorf("bash pwd: %q, want %s", got, remote)
	}
	if err := h.m.CheckFlags([]extension.Flag{{Name: "ssh"}}); err == nil || !strings.Contains(err.Error(), "--ssh needs a value") {
		t.Errorf("a bare --ssh: %v", err)
	}
}

// input-transform-streaming: a message that mentions changes gets `git
// diff --stat` added, except while steering (a message sent while the
// agent works, from the steering queue), where speed matters.
func driveInputTransformStreaming(t *testing.T) {
	h := startHost(t, "tui", "input-transform-streaming.ts")
	gitIn(t, h.cwd, "init", "-q")
	if err := os.WriteFile(filepath.Join(h.cwd, "a.txt"), []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gitIn(t, h.cwd, "add", "a.txt")
	gitIn(t, h.cwd, "commit", "-qm", "first")
	if err := os.WriteFile(filepath.Join(h.cwd, "a.txt"), []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for queued, transformed := range map[agent.Behavior]bool{agent.BehaviorNone: true, agent.BehaviorFollowUp: true, agent.BehaviorSteer: false} {
		r, err := h.ic.Input(t.Context(), agent.InputEvent{Text: "review my changes", Queued: queued})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Action == agent.InputTransform && strings.Contains(r.Text, "Current uncommitted changes:") && strings.Contains(r.Text, "a.txt")
		if got != transformed || !transformed && r.Action != agent.InputContinue {
			t.Errorf("queued %q: %+v, want transformed %v", queued, r, transformed)
		}
	}
}

// gitIn runs git in dir, as a fixed person.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// prompt-customizer: before_agent_start's systemPromptOptions name the
// run's tools and skills as pi's do, and the tool_guidance section the
// extension sets there joins the system prompt, in a tag of its name.
func drivePromptCustomizer(t *testing.T) {
	h := startHost(t, "tui", "prompt-customizer.ts")
	ev := agent.AgentStartEvent{Prompt: "hi", Sections: []core.PromptSection{{Name: "preamble", Text: "You are cairn."}},
		Tools: []string{"read", "bash", "grep"}, Options: agent.PromptOptions{Cwd: h.cwd, Skills: []agent.PromptSkill{{Name: "deploy", Description: "ships it"}}}}
	r, err := h.ic.BeforeAgentStart(t.Context(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sections) != 1 || r.Sections[0].Name != "tool_guidance" {
		t.Fatalf("sections %+v", r.Sections)
	}
	got := r.Sections[0].Text
	for _, want := range []string{"<tool_guidance>\n", "- Use `read` for file contents", "- Use `bash` for file operations", "- Available skills: deploy.", "\n</tool_guidance>"} {
		if !strings.Contains(got, want) {
			t.Errorf("tool_guidance lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "`edit`") {
		t.Errorf("guidance for a tool the run does not have:\n%s", got)
	}
	ev.Tools, ev.Options.Skills = []string{"grep"}, nil
	if r, err := h.ic.BeforeAgentStart(t.Context(), ev); err != nil || len(r.Sections) != 0 {
		t.Errorf("no guidance to give: %+v %v", r, err)
	}
}

// provider-payload: each request's payload is logged to
// .pi/provider-payload.log (CONFIG_DIR_NAME) before it is sent, and the
// response's status and headers after; the log holds no key, since the
// payload an extension sees has the request's secrets taken out.
func driveProviderPayload(t *testing.T) {
	h := startHost(t, "print", "provider-payload.ts")
	if err := os.Mkdir(filepath.Join(h.cwd, ".pi"), 0o700); err != nil {
		t.Fatal(err)
	}
	payload := func() (json.RawMessage, error) {
		return json.RawMessage(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"stream":true}`), nil
	}
	out, err := h.ic.ProviderRequest(t.Context(), agent.ProviderRequestEvent{Payload: payload})
	if err != nil || out != nil {
		t.Fatalf("before_provider_request: %s %v (it only logs)", out, err)
	}
	if err := h.ic.ProviderResponse(t.Context(), agent.ProviderResponseEvent{Status: 200, Headers: map[string]string{"X-Request-Id": "r1"}}); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(h.cwd, ".pi", "provider-payload.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"model": "gpt-4o-mini"`, `"content": "hi"`, `[200] {"X-Request-Id":"r1"}`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// dynamic-resources: resources_discover adds its skill, prompt template
// and theme, each by an absolute path beside the extension (cmd/cairn's
// TestPiExtensionResourcesAreLoaded checks cairn loads them).
func driveDynamicResources(t *testing.T) {
	h := startHost(t, "print", "dynamic-resources")
	res, errs := h.m.DiscoverResources(t.Context(), h.cwd)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	dir := filepath.Join(examples, "dynamic-resources")
	if len(res.SkillPaths) != 1 || res.SkillPaths[0] != filepath.Join(dir, "SKILL.md") ||
		len(res.PromptPaths) != 1 || res.PromptPaths[0] != filepath.Join(dir, "dynamic.md") ||
		len(res.ThemePaths) != 1 || res.ThemePaths[0] != filepath.Join(dir, "dynamic.json") {
		t.Errorf("resources %+v", res)
	}
	if !Mentions([]string{filepath.Join(dir, "index.ts")}, "resources_discover") {
		t.Error("its source does not mention resources_discover")
	}
}

// Mentions reads an entry, and for an index module the sources beside
// it, never node_modules.
func TestMentions(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	single := write("single.ts", `pi.on("resources_discover", f)`)
	index := write("pkg/index.ts", `import "./lib/hooks"`)
	write("pkg/lib/hooks.ts", `pi.on("resources_discover", f)`)
	deps := write("deps/index.ts", `import "x"`)
	write("deps/node_modules/x/index.js", `"resources_discover"`)
	plain := write("plain.ts", `pi.on("session_start", f)`)
	for files, want := range map[string]bool{single: true, index: true, deps: false, plain: false} {
		if got := Mentions([]string{files}, "resources_discover"); got != want {
			t.Errorf("%s: %v, want %v", files, got, want)
		}
	}
}

func FuzzMentions(f *testing.F) {
	for _, s := range []string{`pi.on("resources_discover")`, "resources_discove", "", "\x00resources_discover\xff"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		p := filepath.Join(dir, "ext.ts")
		if err := os.WriteFile(p, src, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, want := Mentions([]string{p}, "resources_discover"), strings.Contains(string(src), "resources_discover"); got != want {
			t.Fatalf("%q: %v, want %v", src, got, want)
		}
	})
}
