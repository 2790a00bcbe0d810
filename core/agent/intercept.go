package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/compaction"
)

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
func (s *Session) admit(ctx context.Context, msgs []core.Message, queue Behavior) [][]core.Message {
	out := make([][]core.Message, len(msgs))
	for i, m := range msgs {
		out[i] = []core.Message{m}
		if u, ok := m.(*core.UserMessage); ok {
			out[i] = s.admitOne(ctx, u, queue)
		}
	}
	return out
}

func (s *Session) admitOne(ctx context.Context, u *core.UserMessage, queue Behavior) []core.Message {
	text, images := splitUser(u)
	var added []core.Message
	changed := false
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Input == nil {
			continue
		}
		e := InputEvent{Conversation: s.Conversation(), Text: text, Images: images, Queued: queue}
		r, err := intercept(ctx, ic, func(c context.Context) (InputResult, error) { return ic.Input(c, e) })
		if err != nil && nonBlocking(err) {
			s.interceptFailed(ctx, ic, "input", err)
			err = nil
		}
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
		tools := s.cfg.Toolset.Tools()
		e := AgentStartEvent{Conversation: s.Conversation(), Prompt: prompt, Sections: s.systemSections(tools), Tools: toolNames(tools)}
		if s.cfg.PromptOptions != nil {
			e.Options = s.cfg.PromptOptions()
		}
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
func (s *Session) stopping(ctx context.Context, msg *core.AssistantMessage, added []core.Message, continued *int) core.Message {
	var reasons []string
	var from *Interceptor
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Stop == nil {
			continue
		}
		e := StopEvent{Conversation: s.Conversation(), Message: msg, Continued: *continued, Messages: slices.Clone(added)}
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

// beforeCompact runs the BeforeCompact handlers on the prepared
// compaction and returns the instructions to compact with and the
// compaction a handler supplied (the last one's), or an error when one
// cancels it (or fails, which cancels it too).
func (s *Session) beforeCompact(ctx context.Context, reason core.CompactionReason, instructions string, prep *compaction.Preparation, firstKept string) (string, *SuppliedCompaction, error) {
	var supplied *SuppliedCompaction
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.BeforeCompact == nil {
			continue
		}
		e := CompactEvent{Conversation: s.Conversation(), Reason: reason, Instructions: instructions, Preparation: prep, FirstKeptEntryID: firstKept}
		r, err := intercept(ctx, ic, func(c context.Context) (CompactResult, error) { return ic.BeforeCompact(c, e) })
		if err != nil && nonBlocking(err) {
			s.interceptFailed(ctx, ic, "before compact", err)
			err = nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("compaction cancelled: %s", s.interceptFailed(ctx, ic, "before compact", err))
		}
		if r.Cancel {
			why := r.Reason
			if why == "" {
				why = "no reason given"
			}
			return "", nil, fmt.Errorf("compaction cancelled by %s: %s", ic.Name, why)
		}
		if r.Instructions != "" {
			instructions = r.Instructions
		}
		if r.Compaction != nil {
			supplied = r.Compaction
		}
	}
	return instructions, supplied, nil
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
	admitted := slices.Concat(s.admit(ctx, pending, BehaviorNone)...)
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
// from index dequeued on; none when dequeued < 0; queue is the queue they
// came from) through the Input handlers, and returns what enters the
// conversation for each message.
func (s *Session) admitQueued(ctx context.Context, pending []core.Message, dequeued int, queue Behavior) [][]core.Message {
	out := make([][]core.Message, len(pending))
	for i, m := range pending {
		out[i] = []core.Message{m}
	}
	if dequeued >= 0 && dequeued < len(pending) && len(s.cfg.Interceptors) > 0 {
		copy(out[dequeued:], s.admit(ctx, pending[dequeued:], queue))
	}
	return out
}

// Notify shows text to whoever watches the session, as a Notice: for
// interceptors' messages to the person (a hook's systemMessage), which are
// no part of the conversation.
func (s *Session) Notify(level core.NotifyLevel, text string) {
	s.publish(core.Notice{Level: level, Message: text})
}
