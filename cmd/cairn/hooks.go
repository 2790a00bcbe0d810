package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/settings"
)

// claudeHooksOptIn reports whether the person's own settings opt in to a
// trusted project's .claude/settings.json hooks. Only the person's file
// counts: the project's files are read after trust is decided, and trust
// must then cover the .claude files (trust.Project.ClaudeSettings).
func claudeHooksOptIn(env environment) bool {
	cfg, _ := hook.LoadFiles(settings.GlobalFile(env.dir))
	return cfg.ReadClaudeProjectSettings
}

// claudeUserSettings is the person's own Claude Code settings file:
// $CLAUDE_CONFIG_DIR/settings.json, or ~/.claude/settings.json; "" when
// neither can be named.
func claudeUserSettings(env environment) string {
	if d := env.lookup("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "settings.json")
	}
	if home := env.lookup("HOME"); home != "" {
		return filepath.Join(home, ".claude", "settings.json")
	}
	return ""
}

// readClaudeUserHooks reports whether the person's Claude Code hooks run
// in cairn: yes unless their cairn settings say
// "hooks": {"readClaudeUserSettings": false}.
func readClaudeUserHooks(env environment) bool {
	cfg, _ := hook.LoadFiles(settings.GlobalFile(env.dir))
	return !cfg.SkipClaudeUserSettings
}

// loadHooks reads the person's hooks (cairn's and Claude Code's own
// ~/.claude/settings.json) and, when the project is trusted, the
// project's (and with the opt-in its Claude Code settings'), printing what
// is wrong with them as warnings. It returns nil when there are none.
func loadHooks(streams IOStreams, env environment, cwd string, trusted bool, shellPath string) *hook.Hooks {
	files := []string{settings.GlobalFile(env.dir)}
	if claude := claudeUserSettings(env); claude != "" && readClaudeUserHooks(env) {
		files = append(files, claude)
	}
	if trusted {
		files = append(files, settings.ProjectFile(cwd))
	}
	cfg, warnings := hook.LoadFiles(files...)
	plugins, ws := installedPlugins(env, cwd, trusted)
	warnings = append(warnings, ws...)
	pcfg, ws := pluginHooks(plugins)
	cfg.Merge(pcfg)
	warnings = append(warnings, ws...)
	if claudeHooksOptIn(env) && trusted {
		claude, ws := hook.LoadFiles(hook.ClaudeProjectFiles(cwd)...)
		cfg.Merge(claude)
		warnings = append(warnings, ws...)
	}
	for _, w := range warnings {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
	}
	if cfg.Empty() {
		return nil
	}
	return hook.New(cfg, hook.Options{Dir: cwd, Getenv: env.getenv, Shell: shellPath})
}

// hookSlack is how much longer than its slowest hook the session waits for
// an event's hooks (which core/shell stops at their own limits).
const hookSlack = 5 * time.Second

// hookInterceptors are the session's interceptors for h: one per event
// with hooks, named "hook <Event>", so a failure says which event's hooks
// failed. mode is the approval mode now, for permission_mode; tell shows
// the messages hooks leave for the person (systemMessage).
func hookInterceptors(h *hook.Hooks, mode func() approval.Mode, tell func(string)) []agent.Interceptor {
	if h == nil {
		return nil
	}
	a := hookAdapter{h: h, mode: mode, tell: tell}
	h.OnAsync(tell)
	var out []agent.Interceptor
	add := func(e hook.Event, set func(*agent.Interceptor)) {
		if h.Has(e) {
			ic := agent.Interceptor{Name: "hook " + string(e), Timeout: h.Longest(e) + hookSlack}
			set(&ic)
			out = append(out, ic)
		}
	}
	add(hook.SessionStart, func(ic *agent.Interceptor) { ic.SessionStart = a.sessionStart })
	add(hook.UserPromptSubmit, func(ic *agent.Interceptor) { ic.Input = a.userPrompt })
	add(hook.PreToolUse, func(ic *agent.Interceptor) { ic.ToolCall = a.toolCall })
	add(hook.PermissionRequest, func(ic *agent.Interceptor) { ic.PermissionRequest = a.permissionRequest })
	if h.Has(hook.PostToolUse) || h.Has(hook.PostToolUseFailure) {
		ic := agent.Interceptor{Name: "hook PostToolUse", Timeout: max(h.Longest(hook.PostToolUse), h.Longest(hook.PostToolUseFailure)) + hookSlack,
			ToolResult: a.toolResult}
		out = append(out, ic)
	}
	add(hook.Notification, func(ic *agent.Interceptor) { ic.Notification = a.notification })
	add(hook.Stop, func(ic *agent.Interceptor) { ic.Stop = a.stop })
	add(hook.PreCompact, func(ic *agent.Interceptor) { ic.BeforeCompact = a.preCompact })
	add(hook.SessionEnd, func(ic *agent.Interceptor) { ic.SessionEnd = a.sessionEnd })
	return out
}

// hookAdapter turns the session's points into Claude Code hook events.
type hookAdapter struct {
	h    *hook.Hooks
	mode func() approval.Mode
	tell func(string)
}

// fire runs in's hooks for names and shows the messages they leave for
// the person.
func (a hookAdapter) fire(ctx context.Context, in hook.Input, names ...string) (hook.Answer, error) {
	ans, err := a.h.Fire(ctx, in, names...)
	if a.tell != nil {
		for _, m := range ans.Messages {
			a.tell(fmt.Sprintf("%s hook: %s", in.HookEventName, m))
		}
	}
	return ans, err
}

// base is the part of every event's input that says where it happens.
func (a hookAdapter) base(c agent.ConversationInfo, e hook.Event) hook.Input {
	in := hook.Input{SessionID: c.ID, TranscriptPath: c.Path, Cwd: a.h.Dir(), HookEventName: e}
	if a.mode != nil {
		in.PermissionMode = permissionMode(a.mode())
	}
	return in
}

// permissionMode names cairn's approval mode as Claude Code names its
// permission modes.
func permissionMode(m approval.Mode) string {
	switch m {
	case approval.ModeAutoEdit:
		return "acceptEdits"
	case approval.ModeYolo:
		return "bypassPermissions"
	}
	return "default"
}

func (a hookAdapter) sessionStart(ctx context.Context, e agent.SessionStartEvent) (agent.Added, error) {
	in := a.base(e.Conversation, hook.SessionStart)
	in.Source = string(e.Source)
	ans, err := a.fire(ctx, in, in.Source)
	return agent.Added{Context: ans.Context}, err
}

func (a hookAdapter) sessionEnd(ctx context.Context, e agent.SessionEndEvent) error {
	in := a.base(e.Conversation, hook.SessionEnd)
	in.Reason = "other"
	if e.Reason == agent.EndExit {
		in.Reason = "prompt_input_exit"
	}
	_, err := a.fire(ctx, in, in.Reason)
	return err
}

func (a hookAdapter) userPrompt(ctx context.Context, e agent.InputEvent) (agent.InputResult, error) {
	in := a.base(e.Conversation, hook.UserPromptSubmit)
	in.Prompt = &e.Text
	ans, err := a.fire(ctx, in)
	// A failing hook does not hold the prompt back, as in Claude Code:
	// only exit 2 or a JSON block does.
	err = agent.NonBlocking(err)
	switch {
	case ans.Halt:
		return agent.InputResult{Action: agent.InputBlock, Reason: ans.HaltReason}, err
	case ans.Block:
		return agent.InputResult{Action: agent.InputBlock, Reason: ans.Reason}, err
	}
	return agent.InputResult{Context: ans.Context}, err
}

func (a hookAdapter) toolCall(ctx context.Context, e agent.ToolCallEvent) (agent.ToolCallResult, error) {
	t := hook.ToolCall(e.Call.Name, e.Call.Arguments, a.h.Dir())
	in := a.base(e.Conversation, hook.PreToolUse)
	in.ToolName, in.ToolInput, in.ToolUseID = t.Name, t.Input, e.Call.ID
	ans, err := a.fire(ctx, in, t.Names...)
	if err != nil {
		return agent.ToolCallResult{}, err
	}
	r := agent.ToolCallResult{Context: ans.Context}
	if ans.UpdatedInput != nil {
		args, err := hook.ToolArguments(e.Call.Name, e.Call.Arguments, ans.UpdatedInput)
		if err != nil {
			return r, fmt.Errorf("a PreToolUse hook's updatedInput: %w", err)
		}
		r.Arguments = args
	}
	switch {
	case ans.Block || ans.Halt:
		r.Decision, r.Reason = agent.CallBlock, strings.TrimSpace(ans.Reason+"\n"+ans.HaltReason)
	case ans.Permission == "ask":
		r.Decision, r.Reason = agent.CallAsk, ans.PermissionReason
	case ans.Permission == "allow":
		r.Decision, r.Reason = agent.CallAllow, ans.PermissionReason
	}
	return r, nil
}

func (a hookAdapter) permissionRequest(ctx context.Context, e agent.PermissionRequestEvent) (agent.PermissionRequestResult, error) {
	t := hook.ToolCall(e.Call.Name, e.Call.Arguments, a.h.Dir())
	in := a.base(e.Conversation, hook.PermissionRequest)
	in.ToolName, in.ToolInput, in.ToolUseID = t.Name, t.Input, e.Call.ID
	ans, err := a.fire(ctx, in, t.Names...)
	switch {
	case err != nil:
		// The person is asked, as without the hook.
		return agent.PermissionRequestResult{}, err
	case ans.Block:
		return agent.PermissionRequestResult{Decision: agent.CallBlock, Reason: ans.Reason}, nil
	case ans.Permission == "allow":
		return agent.PermissionRequestResult{Decision: agent.CallAllow, Reason: ans.PermissionReason}, nil
	}
	return agent.PermissionRequestResult{}, nil
}

func (a hookAdapter) toolResult(ctx context.Context, e agent.ToolResultEvent) (agent.ToolResultResult, error) {
	t := hook.ToolCall(e.Call.Name, e.Call.Arguments, a.h.Dir())
	text := (&core.ToolResultMessage{Content: e.Result.Content}).Text()
	// As in Claude Code, PostToolUse is for calls that succeeded and
	// PostToolUseFailure for the others; a configuration with no
	// PostToolUseFailure hooks keeps cairn's older way (PostToolUse for
	// every result), so existing hooks still see failures.
	event := hook.PostToolUse
	if e.Result.IsError && a.h.Has(hook.PostToolUseFailure) {
		event = hook.PostToolUseFailure
	}
	in := a.base(e.Conversation, event)
	in.ToolName, in.ToolInput, in.ToolUseID = t.Name, t.Input, e.Call.ID
	if event == hook.PostToolUseFailure {
		in.Error = text
	} else {
		in.ToolResponse = hook.ToolResponse(e.Call.Name, text, e.Result.IsError, e.Result.Details)
	}
	ans, err := a.fire(ctx, in, t.Names...)
	var r agent.ToolResultResult
	r.Context = ans.Context
	if ans.Block {
		// The tool ran; Claude Code tells the model the hook's reason.
		r.Context = append(r.Context, string(event)+" hook feedback:\n"+ans.Reason)
	}
	return r, err
}

func (a hookAdapter) stop(ctx context.Context, e agent.StopEvent) (agent.StopResult, error) {
	in := a.base(e.Conversation, hook.Stop)
	active := e.Continued > 0
	in.StopHookActive = &active
	ans, err := a.fire(ctx, in)
	if err != nil || ans.Halt || !ans.Block {
		return agent.StopResult{}, err
	}
	return agent.StopResult{Continue: true, Reason: "Stop hook feedback:\n" + ans.Reason}, nil
}

func (a hookAdapter) preCompact(ctx context.Context, e agent.CompactEvent) (agent.CompactResult, error) {
	in := a.base(e.Conversation, hook.PreCompact)
	in.Trigger = "auto"
	if e.Reason == core.CompactionManual {
		in.Trigger = "manual"
	}
	in.CustomInstructions = &e.Instructions
	ans, err := a.fire(ctx, in, in.Trigger)
	err = agent.NonBlocking(err) // as in Claude Code, only a block cancels
	if ans.Block || ans.Halt {
		return agent.CompactResult{Cancel: true, Reason: strings.TrimSpace(ans.Reason + "\n" + ans.HaltReason)}, err
	}
	return agent.CompactResult{}, err
}

func (a hookAdapter) notification(ctx context.Context, e agent.NotificationEvent) error {
	in := a.base(e.Conversation, hook.Notification)
	in.Message, in.Title, in.NotificationType = e.Message, e.Title, string(e.Kind)
	if in.Message == "" {
		in.Message = e.Title
	}
	_, err := a.fire(ctx, in, in.NotificationType)
	return err
}
