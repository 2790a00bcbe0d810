package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// Interceptor is a set of handlers the session calls at fixed points of its
// work, so that code outside the loop can watch and steer it: Claude Code's
// hooks (core/hook) and pi-style extensions are both written on it. Each
// field is one point; a nil field is a point the interceptor does not
// handle. Config.Interceptors run in order at every point, each seeing what
// the ones before it changed.
//
// Every call is bounded by Timeout. An interceptor whose handler fails (an
// error, a panic, or no answer within its limit) never allows what it could
// have blocked: a failing ToolCall handler refuses the call, a failing
// Input handler keeps the prompt from being sent, a failing BeforeCompact
// handler cancels the compaction. A failure that can block nothing (a
// ToolResult, TurnEnd, Stop, Context or notification handler) changes
// nothing. Each distinct failure is shown once, as a warning Notice.
//
// ToolResult handlers run concurrently for the parallel calls of one
// answer; the others run on the loop's goroutine, ToolCall in call order
// (Notification on one of its own), so a slow handler delays the run, up to
// Timeout. Handlers must not modify what an event gives them (messages,
// results, arguments): they return what should change.
type Interceptor struct {
	// Name says who the interceptor is in notices and questions ("hook
	// PreToolUse", "extension guard").
	Name string
	// Timeout bounds each handler call; zero means DefaultInterceptTimeout.
	Timeout time.Duration

	// SessionStart is called before the first prompt of a conversation
	// (pi's session_start, Claude Code's SessionStart); the text it adds
	// goes before that prompt.
	SessionStart func(ctx context.Context, e SessionStartEvent) (Added, error)
	// SessionEnd is called when the session closes or moves to another
	// conversation (pi's session_shutdown, Claude Code's SessionEnd). It
	// runs after the work is stopped, with a context of its own.
	SessionEnd func(ctx context.Context, e SessionEndEvent) error
	// Input is called for each prompt, steering and follow-up message
	// before it enters the conversation (pi's input, Claude Code's
	// UserPromptSubmit): it may let it through, transform it, handle it
	// (not sent, nothing said) or block it (not sent, the reason shown).
	Input func(ctx context.Context, e InputEvent) (InputResult, error)
	// BeforeAgentStart is called once per prompt after its input was
	// admitted (pi's before_agent_start): it may add system prompt
	// sections for this prompt's requests, and context.
	BeforeAgentStart func(ctx context.Context, e AgentStartEvent) (AgentStartResult, error)
	// Context may rewrite the messages of each request (pi's context),
	// in the provider's form (core.ToLLM); nil keeps them. The
	// conversation itself is unchanged.
	Context func(ctx context.Context, e ContextEvent) ([]core.Message, error)
	// ToolCall is called for each call whose tool exists and whose
	// arguments passed core.CheckArguments, before the approver (pi's
	// tool_call, Claude Code's PreToolUse). See ToolCallResult.
	ToolCall func(ctx context.Context, e ToolCallEvent) (ToolCallResult, error)
	// ToolResult is called with each result of a call that ran (pi's
	// tool_result, Claude Code's PostToolUse): it may replace the result
	// and add context.
	ToolResult func(ctx context.Context, e ToolResultEvent) (ToolResultResult, error)
	// TurnEnd is told each turn's end (pi's turn_end).
	TurnEnd func(ctx context.Context, e TurnEndEvent) error
	// Stop is called when the model has stopped and nothing is queued
	// (pi's agent_end, Claude Code's Stop); it may send the agent back to
	// work with a reason the model reads, at most MaxStopContinues times
	// per prompt.
	Stop func(ctx context.Context, e StopEvent) (StopResult, error)
	// BeforeCompact is called before every compaction, manual or
	// automatic (pi's session_before_compact, Claude Code's PreCompact):
	// it may cancel it or change its instructions.
	BeforeCompact func(ctx context.Context, e CompactEvent) (CompactResult, error)
	// Notification is told when the session asks the person something
	// (Claude Code's Notification). It never delays the question.
	Notification func(ctx context.Context, e NotificationEvent) error
	// UserBash is called by front ends through Session.InterceptUserBash
	// before they run a `!cmd` the person typed (pi's user_bash).
	UserBash func(ctx context.Context, e UserBashEvent) (UserBashResult, error)
}

// DefaultInterceptTimeout bounds a handler call of an Interceptor whose
// Timeout is zero: Claude Code's default for a hook.
const DefaultInterceptTimeout = 60 * time.Second

// MaxStopContinues bounds how many times Stop handlers may send the agent
// back to work within one prompt, so a handler that always asks cannot
// keep it working forever.
const MaxStopContinues = 5

// ContextMessageType is the CustomType of the messages that carry text an
// interceptor added (Added, InputResult.Context, ...). They are shown, and
// reach the model as user messages.
const ContextMessageType = "interceptor_context"

// Added is text an interceptor adds to the conversation for the model, each
// string one message.
type Added struct {
	Context []string
}

// StartSource says why a conversation's session started.
type StartSource string

// The sources of SessionStart, as Claude Code names them.
const (
	StartStartup StartSource = "startup" // a new conversation at launch
	StartResume  StartSource = "resume"  // a conversation with history
	StartClear   StartSource = "clear"   // an empty conversation after another
)

// SessionStartEvent is the SessionStart point.
type SessionStartEvent struct {
	Conversation ConversationInfo
	Source       StartSource
}

// EndReason says why a session ended.
type EndReason string

// The reasons of SessionEnd.
const (
	EndExit   EndReason = "exit"   // the session closed
	EndSwitch EndReason = "switch" // it moved to another conversation
)

// SessionEndEvent is the SessionEnd point.
type SessionEndEvent struct {
	Conversation ConversationInfo
	Reason       EndReason
}

// InputEvent is the Input point: a message's text and images.
type InputEvent struct {
	Conversation ConversationInfo
	Text         string
	Images       []core.Content
}

// InputAction is what becomes of a message.
type InputAction uint8

// The input actions, as pi names them.
const (
	// InputContinue sends the message as it is.
	InputContinue InputAction = iota
	// InputTransform sends Text (and Images, when not nil) instead.
	InputTransform
	// InputHandled drops the message: the interceptor dealt with it.
	InputHandled
	// InputBlock drops the message and shows Reason to the person.
	InputBlock
)

// InputResult is an Input handler's answer; Context is added after the
// message when it is sent.
type InputResult struct {
	Action  InputAction
	Text    string
	Images  []core.Content
	Reason  string
	Context []string
}

// AgentStartEvent is the BeforeAgentStart point: the prompt's text and the
// system prompt's sections as they are.
type AgentStartEvent struct {
	Conversation ConversationInfo
	Prompt       string
	Sections     []core.PromptSection
}

// AgentStartResult adds system prompt sections for this prompt's requests,
// after the others, and context after the prompt.
type AgentStartResult struct {
	Sections []core.PromptSection
	Context  []string
}

// ContextEvent is the Context point.
type ContextEvent struct {
	Conversation ConversationInfo
	Messages     []core.Message
}

// ToolCallEvent is the ToolCall point: the call with its canonical
// arguments, and its tool.
type ToolCallEvent struct {
	Conversation ConversationInfo
	Call         core.ToolCall
	Tool         core.Tool
}

// CallDecision is what an interceptor decides about a tool call.
type CallDecision uint8

// The call decisions, as Claude Code's permissionDecision has them.
const (
	// CallUndecided leaves the call to the next interceptor and the
	// approver.
	CallUndecided CallDecision = iota
	// CallAllow saves the approval question where a rule could, never
	// more (approval.VerdictAllow): protected files, secrets, leaving the
	// sandbox and tools the person refused are still asked about.
	CallAllow
	// CallAsk forces the approval question (approval.VerdictAsk); Reason
	// is shown with it.
	CallAsk
	// CallBlock refuses the call; Reason is the result the model reads.
	CallBlock
)

// ToolCallResult is a ToolCall handler's answer. Arguments, when not nil,
// replace the call's; they are checked again with core.CheckArguments, and
// the call is refused if they fail. Over several interceptors a block ends
// it at once, and an ask outweighs an allow. Context is added after the
// turn's results, whatever becomes of the call.
type ToolCallResult struct {
	Arguments json.RawMessage
	Decision  CallDecision
	Reason    string
	Context   []string
}

// ToolResultEvent is the ToolResult point.
type ToolResultEvent struct {
	Conversation ConversationInfo
	Call         core.ToolCall
	Tool         core.Tool
	Result       core.ToolResult
}

// ToolResultResult is a ToolResult handler's answer: Result, when not nil,
// replaces the result (content, details, error flag); Context is added
// after the turn's results.
type ToolResultResult struct {
	Result  *core.ToolResult
	Context []string
}

// TurnEndEvent is the TurnEnd point.
type TurnEndEvent struct {
	Conversation ConversationInfo
	Message      *core.AssistantMessage
	Results      []*core.ToolResultMessage
}

// StopEvent is the Stop point: the model's last answer, and how many times
// Stop handlers already sent the agent back to work for this prompt
// (Claude Code's stop_hook_active is Continued > 0).
type StopEvent struct {
	Conversation ConversationInfo
	Message      *core.AssistantMessage
	Continued    int
}

// StopResult sends the agent back to work when Continue is set; Reason is
// what the model is told (required: an empty reason does not continue).
type StopResult struct {
	Continue bool
	Reason   string
}

// CompactEvent is the BeforeCompact point.
type CompactEvent struct {
	Conversation ConversationInfo
	Reason       core.CompactionReason
	Instructions string
}

// CompactResult cancels the compaction (Reason says why) or, with
// Instructions set, replaces its instructions.
type CompactResult struct {
	Cancel       bool
	Reason       string
	Instructions string
}

// NotificationKind says what a notification is about, as Claude Code's
// notification_type does.
type NotificationKind string

// The notification kinds.
const (
	NotifyPermission  NotificationKind = "permission_prompt"
	NotifyElicitation NotificationKind = "elicitation_dialog"
)

// NotificationEvent is the Notification point.
type NotificationEvent struct {
	Conversation ConversationInfo
	Kind         NotificationKind
	Title        string
	Message      string
}

// UserBashEvent is the UserBash point.
type UserBashEvent struct {
	Conversation ConversationInfo
	Command      string
}

// UserBashAction is what becomes of a `!cmd`.
type UserBashAction uint8

// The user bash actions.
const (
	// BashContinue runs the command.
	BashContinue UserBashAction = iota
	// BashHandled does not run it: Output and ExitCode are its result.
	BashHandled
	// BashBlock does not run it; Reason says why.
	BashBlock
)

// UserBashResult is a UserBash handler's answer.
type UserBashResult struct {
	Action   UserBashAction
	Output   string
	ExitCode int
	Reason   string
}

// interceptState is the session's bookkeeping for its interceptors.
type interceptState struct {
	mu sync.Mutex
	// shown are the failures already shown, so each is shown once.
	shown map[string]bool
	// started says a SessionStart ran for the current conversation;
	// starts counts them.
	started bool
	starts  int
	// sections are the system prompt sections BeforeAgentStart added for
	// the current prompt.
	sections []core.PromptSection
	// notes tracks Notification handlers still running.
	notes sync.WaitGroup
}

// intercept runs one handler call of ic within its time limit and turns a
// panic or a missed deadline into an error. A handler that ignores its
// context is left behind, its answer unread.
func intercept[R any](ctx context.Context, ic *Interceptor, f func(context.Context) (R, error)) (R, error) {
	limit := ic.Timeout
	if limit <= 0 {
		limit = DefaultInterceptTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type answer struct {
		r   R
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: fmt.Errorf("panicked: %v", p)}
			}
		}()
		r, err := f(cctx)
		done <- answer{r, err}
	}()
	select {
	case a := <-done:
		return a.r, a.err
	case <-cctx.Done():
		var zero R
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, fmt.Errorf("did not answer within %s", limit)
	}
}

// interceptFailed shows a handler's failure, once per distinct failure;
// an aborted run is no failure.
func (s *Session) interceptFailed(ctx context.Context, ic *Interceptor, point string, err error) string {
	text := fmt.Sprintf("%s (%s) failed: %v", ic.Name, point, err)
	if ctx.Err() != nil {
		return text
	}
	s.icpt.mu.Lock()
	if s.icpt.shown == nil {
		s.icpt.shown = map[string]bool{}
	}
	seen := s.icpt.shown[text]
	s.icpt.shown[text] = true
	s.icpt.mu.Unlock()
	if !seen {
		s.publish(core.Notice{Level: core.NotifyWarning, Message: text})
	}
	return text
}

// contextMessages are the messages carrying text ic added.
func (s *Session) contextMessages(ic *Interceptor, texts []string) []core.Message {
	var out []core.Message
	details, _ := json.Marshal(map[string]string{"from": ic.Name})
	for _, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, &core.CustomMessage{CustomType: ContextMessageType, Content: []core.Content{core.TextBlock(t)},
			Display: true, Details: details, Timestamp: s.now()})
	}
	return out
}

// startSession runs the SessionStart handlers once per conversation and
// returns the context they added.
func (s *Session) startSession(ctx context.Context) []core.Message {
	s.icpt.mu.Lock()
	started := s.icpt.started
	s.icpt.started = true
	s.icpt.starts++
	first := s.icpt.starts == 1
	s.icpt.mu.Unlock()
	if started || len(s.cfg.Interceptors) == 0 {
		return nil
	}
	s.mu.Lock()
	history := len(s.messages) > 0
	s.mu.Unlock()
	e := SessionStartEvent{Conversation: s.Conversation(), Source: StartClear}
	switch {
	case history:
		e.Source = StartResume
	case first:
		e.Source = StartStartup
	}
	var out []core.Message
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.SessionStart == nil {
			continue
		}
		a, err := intercept(ctx, ic, func(c context.Context) (Added, error) { return ic.SessionStart(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "session start", err)
			continue
		}
		out = append(out, s.contextMessages(ic, a.Context)...)
	}
	return out
}

// endSession runs the SessionEnd handlers if the conversation's session
// started, each within its limit, whatever became of the work.
func (s *Session) endSession(reason EndReason) {
	s.icpt.mu.Lock()
	started := s.icpt.started
	s.icpt.started = false
	s.icpt.mu.Unlock()
	if !started {
		return
	}
	e := SessionEndEvent{Conversation: s.Conversation(), Reason: reason}
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.SessionEnd == nil {
			continue
		}
		if _, err := intercept(context.Background(), ic, func(c context.Context) (struct{}, error) {
			return struct{}{}, ic.SessionEnd(c, e)
		}); err != nil {
			s.interceptFailed(context.Background(), ic, "session end", err)
		}
	}
}

// admit passes each user message through the Input handlers. It returns,
// for each message, what enters the conversation in its place: nothing
// (handled or blocked), or the message, possibly transformed, followed by
// the context the handlers added.
func (s *Session) admit(ctx context.Context, msgs []core.Message) [][]core.Message {
	out := make([][]core.Message, len(msgs))
	for i, m := range msgs {
		out[i] = []core.Message{m}
		if u, ok := m.(*core.UserMessage); ok {
			out[i] = s.admitOne(ctx, u)
		}
	}
	return out
}

func (s *Session) admitOne(ctx context.Context, u *core.UserMessage) []core.Message {
	text, images := splitUser(u)
	var added []core.Message
	changed := false
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Input == nil {
			continue
		}
		e := InputEvent{Conversation: s.Conversation(), Text: text, Images: images}
		r, err := intercept(ctx, ic, func(c context.Context) (InputResult, error) { return ic.Input(c, e) })
		if err != nil {
			why := s.interceptFailed(ctx, ic, "input", err)
			s.publish(core.Notice{Level: core.NotifyWarning, Message: "The message was not sent: " + why})
			return nil
		}
		switch r.Action {
		case InputHandled:
			return nil
		case InputBlock:
			reason := r.Reason
			if reason == "" {
				reason = "no reason given"
			}
			s.publish(core.Notice{Level: core.NotifyWarning, Message: fmt.Sprintf("%s blocked the message: %s", ic.Name, reason)})
			return nil
		case InputTransform:
			text, changed = r.Text, true
			if r.Images != nil {
				images = r.Images
			}
		}
		added = append(added, s.contextMessages(ic, r.Context)...)
	}
	if changed {
		if strings.TrimSpace(text) == "" && len(images) == 0 {
			return nil
		}
		c := *u
		c.Content = append([]core.Content{core.TextBlock(text)}, images...)
		u = &c
	}
	return append([]core.Message{u}, added...)
}

// splitUser is a user message's text and its other blocks.
func splitUser(u *core.UserMessage) (string, []core.Content) {
	var images []core.Content
	for _, c := range u.Content {
		if c.Type != core.ContentText {
			images = append(images, c)
		}
	}
	return u.Text(), images
}

// beforeAgentStart runs the BeforeAgentStart handlers for a prompt and
// keeps the sections they add for its requests; it returns their context.
func (s *Session) beforeAgentStart(ctx context.Context, pending []core.Message) []core.Message {
	s.icpt.mu.Lock()
	s.icpt.sections = nil
	s.icpt.mu.Unlock()
	var prompt string
	for _, m := range pending {
		if u, ok := m.(*core.UserMessage); ok {
			prompt = u.Text()
		}
	}
	var out []core.Message
	var sections []core.PromptSection
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.BeforeAgentStart == nil {
			continue
		}
		e := AgentStartEvent{Conversation: s.Conversation(), Prompt: prompt, Sections: s.systemSections(s.cfg.Toolset.Tools())}
		r, err := intercept(ctx, ic, func(c context.Context) (AgentStartResult, error) { return ic.BeforeAgentStart(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "before agent start", err)
			continue
		}
		sections = append(sections, r.Sections...)
		s.icpt.mu.Lock()
		s.icpt.sections = sections
		s.icpt.mu.Unlock()
		out = append(out, s.contextMessages(ic, r.Context)...)
	}
	return out
}

// addedSections are the sections BeforeAgentStart added for this prompt.
func (s *Session) addedSections() []core.PromptSection {
	s.icpt.mu.Lock()
	defer s.icpt.mu.Unlock()
	return s.icpt.sections
}

// interceptContext passes a request's messages through the Context
// handlers; a failing handler's change is not made.
func (s *Session) interceptContext(ctx context.Context, msgs []core.Message) []core.Message {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Context == nil {
			continue
		}
		e := ContextEvent{Conversation: s.Conversation(), Messages: msgs}
		r, err := intercept(ctx, ic, func(c context.Context) ([]core.Message, error) { return ic.Context(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "context", err)
			continue
		}
		if r != nil {
			msgs = r
		}
	}
	return msgs
}

// interceptCall runs the ToolCall handlers for a call that may otherwise
// run. It reports false, with r.result saying why, when the call is
// refused; otherwise r.call carries the final arguments and r.verdict what
// the handlers decided, for the approver.
func (s *Session) interceptCall(ctx context.Context, r *toolRun) bool {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.ToolCall == nil {
			continue
		}
		e := ToolCallEvent{Conversation: s.Conversation(), Call: r.call, Tool: r.tool}
		res, err := intercept(ctx, ic, func(c context.Context) (ToolCallResult, error) { return ic.ToolCall(c, e) })
		if err != nil {
			// Fail closed: a handler that could have blocked the call
			// and did not answer blocks it.
			why := s.interceptFailed(ctx, ic, "tool call", err)
			r.result = core.ErrorResult("This tool call was blocked because " + why + ".")
			return false
		}
		r.added = append(r.added, s.contextMessages(ic, res.Context)...)
		if res.Arguments != nil {
			args, err := core.CheckArguments(r.tool.Spec(), res.Arguments)
			if err != nil {
				r.result = core.ErrorResult(fmt.Sprintf("This tool call was blocked: %s changed its arguments to ones that cannot be used: %v", ic.Name, err))
				return false
			}
			r.call.Arguments = args
		}
		switch res.Decision {
		case CallBlock:
			reason := res.Reason
			if reason == "" {
				reason = "no reason given"
			}
			r.result = core.ErrorResult(fmt.Sprintf("This tool call was blocked by %s: %s", ic.Name, reason))
			return false
		case CallAsk:
			r.verdict = approval.Verdict{Kind: approval.VerdictAsk, Reason: res.Reason, From: ic.Name}
		case CallAllow:
			if r.verdict.Kind == approval.VerdictNone {
				r.verdict = approval.Verdict{Kind: approval.VerdictAllow, Reason: res.Reason, From: ic.Name}
			}
		}
	}
	return true
}

// confirmCall asks about a call an interceptor wants asked about when the
// session has no approver to ask; it reports whether the person allowed it,
// and sets r.result when not.
func (s *Session) confirmCall(ctx context.Context, r *toolRun) bool {
	opts := []core.Option{{Value: string(approval.OptionAllowOnce), Label: approval.OptionAllowOnce.Label()},
		{Value: string(approval.OptionDeny), Label: approval.OptionDeny.Label()}}
	msg := r.verdict.From + " asks for this call to be approved"
	if r.verdict.Reason != "" {
		msg += ": " + r.verdict.Reason
	}
	a, out := s.Ask(ctx, core.Question{Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow " + r.call.Name + "?", Message: msg, Options: opts, ToolCallID: r.call.ID})
	if out == core.Answered && a.Value == string(approval.OptionAllowOnce) {
		return true
	}
	r.result = core.ErrorResult(approval.DeniedText(""))
	return false
}

// interceptResult runs the ToolResult handlers for a call that ran,
// keeping the context they add in r.added.
func (s *Session) interceptResult(ctx context.Context, r *toolRun) {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.ToolResult == nil {
			continue
		}
		e := ToolResultEvent{Conversation: s.Conversation(), Call: r.call, Tool: r.tool, Result: r.result}
		res, err := intercept(ctx, ic, func(c context.Context) (ToolResultResult, error) { return ic.ToolResult(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "tool result", err)
			continue
		}
		if res.Result != nil {
			r.result = *res.Result
		}
		r.added = append(r.added, s.contextMessages(ic, res.Context)...)
	}
}

// turnEnded tells the TurnEnd handlers.
func (s *Session) turnEnded(ctx context.Context, msg *core.AssistantMessage, results []*core.ToolResultMessage) {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.TurnEnd == nil {
			continue
		}
		e := TurnEndEvent{Conversation: s.Conversation(), Message: msg, Results: results}
		if _, err := intercept(ctx, ic, func(c context.Context) (struct{}, error) { return struct{}{}, ic.TurnEnd(c, e) }); err != nil {
			s.interceptFailed(ctx, ic, "turn end", err)
		}
	}
}

// stopping runs the Stop handlers when the model has stopped; it returns
// the message that sends the agent back to work, or nil to stop. continued
// counts the continuations of this prompt and is bounded by
// MaxStopContinues.
func (s *Session) stopping(ctx context.Context, msg *core.AssistantMessage, continued *int) core.Message {
	var reasons []string
	var from *Interceptor
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Stop == nil {
			continue
		}
		e := StopEvent{Conversation: s.Conversation(), Message: msg, Continued: *continued}
		r, err := intercept(ctx, ic, func(c context.Context) (StopResult, error) { return ic.Stop(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "stop", err)
			continue
		}
		if r.Continue && strings.TrimSpace(r.Reason) != "" {
			reasons = append(reasons, r.Reason)
			if from == nil {
				from = ic
			}
		}
	}
	if len(reasons) == 0 || ctx.Err() != nil {
		return nil
	}
	if *continued >= MaxStopContinues {
		s.publish(core.Notice{Level: core.NotifyWarning, Message: fmt.Sprintf(
			"%s asked the agent to go on again; it already did %d times for this prompt, so it stops", from.Name, MaxStopContinues)})
		return nil
	}
	*continued++
	return s.contextMessages(from, []string{strings.Join(reasons, "\n\n")})[0]
}

// beforeCompact runs the BeforeCompact handlers and returns the
// instructions to compact with, or an error when one cancels it (or fails,
// which cancels it too).
func (s *Session) beforeCompact(ctx context.Context, reason core.CompactionReason, instructions string) (string, error) {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.BeforeCompact == nil {
			continue
		}
		e := CompactEvent{Conversation: s.Conversation(), Reason: reason, Instructions: instructions}
		r, err := intercept(ctx, ic, func(c context.Context) (CompactResult, error) { return ic.BeforeCompact(c, e) })
		if err != nil {
			return "", fmt.Errorf("compaction cancelled: %s", s.interceptFailed(ctx, ic, "before compact", err))
		}
		if r.Cancel {
			why := r.Reason
			if why == "" {
				why = "no reason given"
			}
			return "", fmt.Errorf("compaction cancelled by %s: %s", ic.Name, why)
		}
		if r.Instructions != "" {
			instructions = r.Instructions
		}
	}
	return instructions, nil
}

// notify tells the Notification handlers about a question, on goroutines
// that Close waits for.
func (s *Session) notify(q core.Question) {
	kind := NotifyElicitation
	if q.Purpose == core.PurposeApproval {
		kind = NotifyPermission
	}
	var e *NotificationEvent
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Notification == nil {
			continue
		}
		if e == nil {
			e = &NotificationEvent{Conversation: s.Conversation(), Kind: kind, Title: q.Title, Message: q.Message}
		}
		ev := *e
		s.icpt.notes.Add(1)
		go func() {
			defer s.icpt.notes.Done()
			if _, err := intercept(s.base, ic, func(c context.Context) (struct{}, error) {
				return struct{}{}, ic.Notification(c, ev)
			}); err != nil {
				s.interceptFailed(s.base, ic, "notification", err)
			}
		}()
	}
}

// InterceptUserBash passes a `!cmd` the person typed through the UserBash
// handlers; front ends call it before running the command and honour the
// answer. A failing handler blocks the command.
func (s *Session) InterceptUserBash(ctx context.Context, command string) UserBashResult {
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.UserBash == nil {
			continue
		}
		e := UserBashEvent{Conversation: s.Conversation(), Command: command}
		r, err := intercept(ctx, ic, func(c context.Context) (UserBashResult, error) { return ic.UserBash(c, e) })
		if err != nil {
			return UserBashResult{Action: BashBlock, Reason: s.interceptFailed(ctx, ic, "user bash", err)}
		}
		if r.Action != BashContinue {
			return r
		}
	}
	return UserBashResult{}
}

// prepareRun runs the points that come before a prompt's run: SessionStart
// (once per conversation), Input for the prompt's messages, and
// BeforeAgentStart. It returns what enters the conversation; nil when the
// interceptors took every message.
func (s *Session) prepareRun(ctx context.Context, pending []core.Message) []core.Message {
	if len(s.cfg.Interceptors) == 0 {
		return pending
	}
	start := s.startSession(ctx)
	admitted := slices.Concat(s.admit(ctx, pending)...)
	if len(admitted) == 0 {
		// No run follows: what SessionStart added waits in the
		// conversation for the next request.
		for _, m := range start {
			s.appendMessage(m)
		}
		return nil
	}
	return slices.Concat(start, admitted, s.beforeAgentStart(ctx, admitted))
}

// admitQueued passes the messages taken from the queues (those of pending
// from index dequeued on; none when dequeued < 0) through the Input
// handlers, and returns what enters the conversation for each message.
func (s *Session) admitQueued(ctx context.Context, pending []core.Message, dequeued int) [][]core.Message {
	out := make([][]core.Message, len(pending))
	for i, m := range pending {
		out[i] = []core.Message{m}
	}
	if dequeued >= 0 && dequeued < len(pending) && len(s.cfg.Interceptors) > 0 {
		copy(out[dequeued:], s.admit(ctx, pending[dequeued:]))
	}
	return out
}

// Notify shows text to whoever watches the session, as a Notice: for
// interceptors' messages to the person (a hook's systemMessage), which are
// no part of the conversation.
func (s *Session) Notify(level core.NotifyLevel, text string) {
	s.publish(core.Notice{Level: level, Message: text})
}
