package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// The events an extension may handle, by pi's names.
var events = []string{"session_start", "session_shutdown", "input", "before_agent_start",
	"tool_call", "tool_result", "turn_end", "agent_end", "user_bash", "session_before_compact",
	// The session lifecycle's before-events (beforeSwitch).
	"session_before_switch", "session_before_fork"}

func knownEvent(name string) bool {
	for _, e := range events {
		if e == name {
			return true
		}
	}
	return false
}

// interceptTimeout is the outer bound the session puts on an extension's
// handler; the handler's own limit (Options.EventTimeout) waits while a
// dialog of the extension is open, and each dialog has its own limit.
const interceptTimeout = time.Hour

// errNotHandled says an extension does not handle an event.
var errNotHandled = errors.New("not handled")

// event sends an event to the extension and waits for its answer, within
// EventTimeout while no dialog of the extension is open. An extension
// still starting is waited for (it may handle the event); one that is not
// running handles nothing.
func (e *extension) event(ctx context.Context, name string, payload any) (json.RawMessage, error) {
	if err := e.ready(ctx); err != nil {
		return nil, err
	}
	if !e.handles(name) {
		return nil, errNotHandled
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		raw json.RawMessage
		err error
	}
	done := make(chan answer, 1)
	go func() {
		raw, err := e.callOp(cctx, MethodEvent, payload)
		done <- answer{raw, err}
	}()
	limit := e.m.opts.EventTimeout
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case a := <-done:
			if a.err != nil && !errors.Is(a.err, context.Canceled) {
				return nil, e.why(a.err)
			}
			return a.raw, a.err
		case <-timer.C:
			e.mu.Lock()
			open := e.dialogs
			e.mu.Unlock()
			if open > 0 {
				timer.Reset(limit)
				continue
			}
			return nil, fmt.Errorf("its %s handler did not answer within %s", name, limit)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// ready waits for the extension's start to end (bounded by its start
// limit) and reports nil when it is ready, errNotHandled otherwise: an
// extension that is not running can block nothing.
func (e *extension) ready(ctx context.Context) error {
	for {
		e.m.mu.Lock()
		ch := e.m.change
		e.m.mu.Unlock()
		st, _ := e.snapshot()
		switch st {
		case Ready:
			return nil
		case Starting:
		default:
			return errNotHandled
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Interceptors returns the session's handlers for the extensions' events,
// one per extension in load order (agent.Config.Interceptors). An
// extension handles only the events it named at start; a handler that
// fails or does not answer never allows what it could have blocked (the
// session's rule).
func (m *Manager) Interceptors() []agent.Interceptor {
	out := make([]agent.Interceptor, 0, len(m.exts))
	for _, e := range m.exts {
		out = append(out, e.interceptor())
	}
	return out
}

// call sends an event and reads its result into v; a result of null (or
// an event not handled) leaves v as it is.
func (e *extension) call(ctx context.Context, name string, payload map[string]any, v any) error {
	payload["type"] = name
	raw, err := e.event(ctx, name, payload)
	if errors.Is(err, errNotHandled) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(raw) == 0 || string(raw) == "null" || v == nil {
		return nil
	}
	if err := strictJSON(raw, v); err != nil {
		return fmt.Errorf("its %s result cannot be read: %w", name, err)
	}
	return nil
}

func (e *extension) interceptor() agent.Interceptor {
	starts := 0
	return agent.Interceptor{
		Name:    fmt.Sprintf("extension %q", e.cfg.Name),
		Timeout: interceptTimeout,
		SessionStart: func(ctx context.Context, ev agent.SessionStartEvent) (agent.Added, error) {
			// The first conversation's session_start was sent when the
			// extension started; later ones are sent here.
			if starts++; starts == 1 {
				return agent.Added{}, nil
			}
			reason := "new"
			if ev.Source == agent.StartResume {
				reason = "resume"
			}
			return agent.Added{}, e.call(ctx, "session_start", map[string]any{"reason": reason}, nil)
		},
		SessionEnd: func(ctx context.Context, ev agent.SessionEndEvent) error {
			return e.call(ctx, "session_shutdown", map[string]any{"reason": string(ev.Reason)}, nil)
		},
		Input: func(ctx context.Context, ev agent.InputEvent) (agent.InputResult, error) {
			if res, ok, err := e.command(ctx, ev.Text); ok {
				return res, err
			}
			var r struct {
				Action string         `json:"action"`
				Text   *string        `json:"text"`
				Images []core.Content `json:"images"`
			}
			p := map[string]any{"text": ev.Text, "images": nonNil(ev.Images), "source": "interactive"}
			if ev.Queued != agent.BehaviorNone {
				// Sent while the agent worked: pi's streamingBehavior.
				p["streamingBehavior"] = string(ev.Queued)
			}
			if err := e.call(ctx, "input", p, &r); err != nil {
				return agent.InputResult{}, err
			}
			switch r.Action {
			case "", "continue":
				return agent.InputResult{}, nil
			case "handled":
				return agent.InputResult{Action: agent.InputHandled}, nil
			case "transform":
				if r.Text == nil {
					return agent.InputResult{}, errors.New(`its input result "transform" has no text`)
				}
				return agent.InputResult{Action: agent.InputTransform, Text: *r.Text, Images: r.Images}, nil
			}
			return agent.InputResult{}, fmt.Errorf(`its input result has action %q; pi's are "continue", "transform" and "handled"`, r.Action)
		},
		BeforeAgentStart: func(ctx context.Context, ev agent.AgentStartEvent) (agent.AgentStartResult, error) {
			var r struct {
				AppendSystemPrompt string `json:"appendSystemPrompt"`
				Message            *struct {
					Content string `json:"content"`
				} `json:"message"`
				Sections []PromptSection `json:"sections"`
			}
			p := map[string]any{"prompt": ev.Prompt, "systemPrompt": joinSections(ev.Sections), "systemPromptOptions": systemPromptOptions(ev)}
			if err := e.call(ctx, "before_agent_start", p, &r); err != nil {
				return agent.AgentStartResult{}, err
			}
			var out agent.AgentStartResult
			if r.AppendSystemPrompt != "" {
				out.Sections = []core.PromptSection{{Name: "extension:" + e.cfg.Name, Text: r.AppendSystemPrompt}}
			}
			secs, err := promptSections(r.Sections)
			if err != nil {
				return agent.AgentStartResult{}, err
			}
			out.Sections = append(out.Sections, secs...)
			if r.Message != nil {
				out.Context = []string{r.Message.Content}
			}
			return out, nil
		},
		ToolCall: func(ctx context.Context, ev agent.ToolCallEvent) (agent.ToolCallResult, error) {
			var r struct {
				Block  bool            `json:"block"`
				Reason string          `json:"reason"`
				Input  json.RawMessage `json:"input"`
			}
			if err := e.call(ctx, "tool_call", map[string]any{"toolName": ev.Call.Name, "toolCallId": ev.Call.ID, "input": args(ev.Call.Arguments)}, &r); err != nil {
				return agent.ToolCallResult{}, err
			}
			if r.Block {
				return agent.ToolCallResult{Decision: agent.CallBlock, Reason: r.Reason}, nil
			}
			return agent.ToolCallResult{Arguments: r.Input}, nil
		},
		ToolResult: func(ctx context.Context, ev agent.ToolResultEvent) (agent.ToolResultResult, error) {
			var r struct {
				Content []core.Content  `json:"content"`
				Details json.RawMessage `json:"details"`
				IsError *bool           `json:"isError"`
			}
			err := e.call(ctx, "tool_result", map[string]any{"toolName": ev.Call.Name, "toolCallId": ev.Call.ID, "input": args(ev.Call.Arguments),
				"content": nonNil(ev.Result.Content), "details": ev.Result.Details, "isError": ev.Result.IsError}, &r)
			if err != nil || (r.Content == nil && r.Details == nil && r.IsError == nil) {
				return agent.ToolResultResult{}, err
			}
			res := ev.Result
			if r.Content != nil {
				if err := checkContent(r.Content); err != nil {
					return agent.ToolResultResult{}, err
				}
				res.Content = r.Content
			}
			if r.Details != nil {
				res.Details = r.Details
			}
			if r.IsError != nil {
				res.IsError = *r.IsError
			}
			return agent.ToolResultResult{Result: &res}, nil
		},
		Context: func(ctx context.Context, ev agent.ContextEvent) ([]core.Message, error) {
			var r struct {
				Messages []json.RawMessage `json:"messages"`
			}
			if err := e.call(ctx, "context", map[string]any{"messages": nonNil(ev.Messages)}, &r); err != nil || r.Messages == nil {
				return nil, err
			}
			out := make([]core.Message, 0, len(r.Messages))
			for i, raw := range r.Messages {
				m, err := core.DecodeAgentMessage(raw)
				if err != nil {
					return nil, fmt.Errorf("its context result's message %d cannot be read: %w", i, err)
				}
				out = append(out, m)
			}
			return out, nil
		},
		TurnEnd: func(ctx context.Context, ev agent.TurnEndEvent) error {
			return e.call(ctx, "turn_end", map[string]any{"message": ev.Message, "toolResults": nonNil(ev.Results)}, nil)
		},
		Stop: func(ctx context.Context, ev agent.StopEvent) (agent.StopResult, error) {
			// pi's agent_end carries the run's messages.
			msgs := []core.Message{ev.Message}
			if len(ev.Messages) > 0 {
				msgs = ev.Messages
			}
			return agent.StopResult{}, e.call(ctx, "agent_end", map[string]any{"messages": msgs}, nil)
		},
		BeforeCompact: e.beforeCompact,
		BeforeSwitch:  e.beforeSwitch,
		// pi's before_provider_request and after_provider_response
		// (provider.go).
		ProviderRequest:  e.providerRequest,
		ProviderResponse: e.providerResponse,
		UserBash: func(ctx context.Context, ev agent.UserBashEvent) (agent.UserBashResult, error) {
			var r struct {
				Result *struct {
					Output   string `json:"output"`
					ExitCode int    `json:"exitCode"`
				} `json:"result"`
			}
			if err := e.call(ctx, "user_bash", map[string]any{"command": ev.Command}, &r); err != nil || r.Result == nil {
				return agent.UserBashResult{}, err
			}
			return agent.UserBashResult{Action: agent.BashHandled, Output: r.Result.Output, ExitCode: r.Result.ExitCode}, nil
		},
	}
}

// command runs text as the extension's `/` command when it names one:
// the message is then handled, not sent.
func (e *extension) command(ctx context.Context, text string) (agent.InputResult, bool, error) {
	name, rest, ok := SplitCommand(text)
	if !ok {
		return agent.InputResult{}, false, nil
	}
	if err := e.ready(ctx); err != nil {
		return agent.InputResult{}, false, nil
	}
	if !e.hasCommand(name) {
		return agent.InputResult{}, false, nil
	}
	reloads := e.reloadCount()
	_, err := e.callOp(ctx, MethodRunCommand, RunCommandParams{Name: name, Args: rest})
	if err != nil && (ctx.Err() != nil || e.reloadCount() != reloads) {
		// Aborted (by the person, or by the command's own new session),
		// or its extension stops to reload: nothing to send, and nothing
		// failed.
		return agent.InputResult{Action: agent.InputHandled}, true, nil
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			// The extension's own words.
			err = errors.New(rpcErr.Message)
		}
		return agent.InputResult{Action: agent.InputBlock, Reason: fmt.Sprintf("/%s failed: %v", name, e.why(err))}, true, nil
	}
	return agent.InputResult{Action: agent.InputHandled}, true, nil
}

// SplitCommand splits "/name args" into name and args.
func SplitCommand(text string) (name, args string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", "", false
	}
	name, args, _ = strings.Cut(text[1:], " ")
	if name == "" {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}

func (e *extension) hasCommand(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.commands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Command is a `/` command an extension registered.
type Command struct {
	Name        string
	Description string
	Extension   string
}

// Commands lists the commands of the ready extensions, in load order.
func (m *Manager) Commands() []Command {
	var out []Command
	for _, e := range m.exts {
		e.mu.Lock()
		if e.state == Ready {
			for _, c := range e.commands {
				out = append(out, Command{Name: c.Name, Description: c.Description, Extension: e.cfg.Name})
			}
		}
		e.mu.Unlock()
	}
	return out
}

// args is a call's arguments as a JSON value (an empty object when none).
func args(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	return raw
}

// nonNil is s, or an empty slice, so it is written as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func joinSections(secs []core.PromptSection) string {
	texts := make([]string, 0, len(secs))
	for _, s := range secs {
		texts = append(texts, s.Text)
	}
	return strings.Join(texts, "\n\n")
}

// beforeSwitch asks the extension about a move to another conversation:
// pi's session_before_switch for a new or resumed one, its
// session_before_fork for a fork (position "before" the user message) or
// a clone (position "at" the tip). {"cancel": true} keeps the session
// where it is.
func (e *extension) beforeSwitch(ctx context.Context, ev agent.SwitchEvent) (agent.SwitchResult, error) {
	var r struct {
		Cancel bool   `json:"cancel"`
		Reason string `json:"reason"`
		// pi's skipConversationRestore: cairn's fork restores no
		// conversation state an extension could skip, so it is read and
		// has no effect.
		SkipConversationRestore bool `json:"skipConversationRestore"`
	}
	var name string
	var p map[string]any
	switch ev.Kind {
	case agent.SwitchNew, agent.SwitchResume:
		name, p = "session_before_switch", map[string]any{"reason": string(ev.Kind)}
		if ev.Target != "" {
			p["targetSessionFile"] = ev.Target
		}
	case agent.SwitchFork:
		name, p = "session_before_fork", map[string]any{"entryId": ev.EntryID, "position": "before"}
	case agent.SwitchClone:
		name, p = "session_before_fork", map[string]any{"entryId": ev.EntryID, "position": "at"}
	default:
		return agent.SwitchResult{}, nil
	}
	if err := e.call(ctx, name, p, &r); err != nil {
		return agent.SwitchResult{}, err
	}
	if !r.Cancel {
		return agent.SwitchResult{}, nil
	}
	if r.Reason == "" {
		r.Reason = "its " + name + " handler cancelled it"
	}
	return agent.SwitchResult{Cancel: true, Reason: r.Reason}, nil
}
