package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// Result texts the model sees when a call did not run, worded as pi words
// them so models and hosts recognise them.
const (
	textSkipped = "Skipped due to queued user message."
	textAborted = "Tool execution was aborted"
	// textTruncated answers the calls of an answer cut off at the output
	// token limit.
	textTruncated = "The answer was cut off at the output token limit before this tool call was complete, so it was not run. Make the call again, with shorter arguments or in smaller steps."
)

// toolRun is one tool call of a turn on its way to a result.
type toolRun struct {
	call core.ToolCall
	// invalid is the argument text that arrived when it was not a JSON
	// object; such a call is answered with an error, not run.
	invalid string
	tool    core.Tool
	run     bool
	result  core.ToolResult
	// duration is how long the tool ran; nil when it did not run.
	duration *time.Duration
	// verdict is what the interceptors said about the call, for the
	// approver; added is the context they added to its result.
	verdict approval.Verdict
	added   []core.Message
}

// runTools executes the tool calls of msg: each is announced, checked
// (unknown tool, approval) in call order, then the allowed ones run in
// parallel. Each call's tool_execution_end comes when it finishes (those
// that did not run first, in call order), and the results enter the
// conversation in call order once all are done, as in pi. A
// steering message that arrives while the calls are prepared skips the
// calls that have not started (interrupt mode immediate) and is returned.
//
// added are the messages interceptors added after the results.
func (s *Session) runTools(ctx context.Context, msg *core.AssistantMessage) (results []*core.ToolResultMessage, added, steering []core.Message, terminate bool) {
	blocks := msg.ToolCalls()
	if len(blocks) == 0 {
		return nil, nil, nil, false
	}
	runs := make([]*toolRun, len(blocks))
	for i, b := range blocks {
		r := &toolRun{call: core.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Arguments}, invalid: b.InvalidArguments}
		runs[i] = r
		if msg.StopReason == core.StopLength {
			// The answer was cut off at the output limit: its calls may
			// be incomplete, so none runs (pi does the same).
			s.announce(r)
			r.result = core.ErrorResult(textTruncated)
			continue
		}
		s.prepare(ctx, r)
	}
	if s.cfg.InterruptMode == InterruptImmediate {
		if steering = s.takeSteering(); len(steering) > 0 {
			for _, r := range runs {
				if r.run {
					r.run, r.result = false, core.ErrorResult(textSkipped)
				}
			}
		}
	}
	s.execute(ctx, runs)
	results = make([]*core.ToolResultMessage, len(runs))
	// As pi's agent loop: the batch ends the run when every result of it
	// asks so.
	terminate = true
	for i, r := range runs {
		terminate = terminate && r.result.Terminate
		res := &core.ToolResultMessage{
			ToolCallID: r.call.ID,
			ToolName:   r.call.Name,
			Content:    r.result.Content,
			Details:    r.result.Details,
			IsError:    r.result.IsError,
			Timestamp:  s.now(),
		}
		// The copy the session holds: a large result's text stays in
		// the session file, not in what a long run accumulates.
		results[i] = s.appendMessage(res).(*core.ToolResultMessage)
	}
	for _, r := range runs {
		for _, m := range r.added {
			added = append(added, s.appendMessage(m))
		}
	}
	return results, added, steering, terminate
}

// prepare announces a call and decides whether it may run: the tool must
// exist, its arguments must read one way only (core.CheckArguments), the
// run must not be aborted, and the approver must allow it. From here on the
// call carries the canonical arguments, so the announcement, the approver's
// question and the tool all see the same value.
func (s *Session) prepare(ctx context.Context, r *toolRun) {
	r.tool = s.findTool(r.call.Name)
	var argsErr error
	if r.tool != nil && r.invalid == "" {
		var args json.RawMessage
		if args, argsErr = core.CheckArguments(r.tool.Spec(), r.call.Arguments); argsErr == nil {
			r.call.Arguments = args
		}
	}
	s.announce(r)
	switch {
	case r.tool == nil:
		r.result = core.ErrorResult(fmt.Sprintf("Tool %s not found", r.call.Name))
	case r.invalid != "":
		r.result = core.ErrorResult(invalidArgumentsText(r.call.Name, r.invalid))
	case argsErr != nil:
		r.result = core.ErrorResult(argsErr.Error())
	case ctx.Err() != nil:
		r.result = core.ErrorResult(textAborted)
	case !s.interceptCall(ctx, r):
		// Refused by an interceptor; r.result says why.
	case s.cfg.Approver != nil:
		d := s.cfg.Approver.Check(approval.WithVerdict(ctx, r.verdict), r.tool, r.call, asker{s: s, call: &r.call})
		if d.Warning != "" {
			s.publish(core.Notice{Level: core.NotifyWarning, Message: d.Warning})
		}
		if !d.Allow {
			r.result = core.ErrorResult(d.DenialText())
			return
		}
		r.run = true
	default:
		r.run = r.verdict.Kind != approval.VerdictAsk || s.confirmCall(ctx, r)
	}
}

// announce publishes a call's tool_execution_start, which every call gets
// before its question (if any) and its end.
func (s *Session) announce(r *toolRun) {
	s.publish(core.ToolExecutionStart{ToolCallID: r.call.ID, ToolName: r.call.Name, Args: r.call.Arguments})
}

// execute runs the allowed calls concurrently and waits for all of them,
// announcing each call's end as it comes.
func (s *Session) execute(ctx context.Context, runs []*toolRun) {
	for _, r := range runs {
		if !r.run {
			s.publishEnd(r)
		}
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		if !r.run {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.publish(core.ToolExecutionRunning{ToolCallID: r.call.ID, ToolName: r.call.Name})
			start := s.cfg.Now()
			r.result = s.executeOne(ctx, r)
			d := s.cfg.Now().Sub(start) // monotonic with time.Now
			r.duration = &d
			s.interceptResult(ctx, r)
			s.publishEnd(r)
		}()
	}
	wg.Wait()
}

// publishEnd announces a call's result.
func (s *Session) publishEnd(r *toolRun) {
	s.publish(core.ToolExecutionEnd{ToolCallID: r.call.ID, ToolName: r.call.Name, Result: r.result, Duration: r.duration})
}

// executeOne runs one tool, turning a failure to run (or a panic) into an
// error result, so every call ends with a result the model can read.
func (s *Session) executeOne(ctx context.Context, r *toolRun) (res core.ToolResult) {
	defer func() {
		if p := recover(); p != nil {
			res = core.ErrorResult(fmt.Sprintf("Tool %s failed unexpectedly: %v", r.call.Name, p))
		}
	}()
	update := func(u core.ToolUpdate) {
		s.publish(core.ToolExecutionUpdate{ToolCallID: r.call.ID, ToolName: r.call.Name, Args: r.call.Arguments, Partial: u})
	}
	res, err := r.tool.Execute(withCaller(ctx, s, r.call), r.call, update)
	if err != nil {
		if ctx.Err() != nil {
			return core.ErrorResult(textAborted)
		}
		return core.ErrorResult(err.Error())
	}
	return res
}

// findTool returns the tool a call runs: any tool callable now, declared
// in this request or not (the model may name a tool it saw in an earlier
// turn or found with a search); the approver judges it like any other.
func (s *Session) findTool(name string) core.Tool { return s.cfg.Toolset.Find(name) }

// maxQuotedArguments bounds how much of broken arguments a result quotes.
const maxQuotedArguments = 2000

// invalidArgumentsText tells the model (and the person) that a call's
// arguments were not valid JSON and what arrived, so it can try again.
func invalidArgumentsText(tool, raw string) string {
	quoted := raw
	if len(quoted) > maxQuotedArguments {
		quoted = quoted[:maxQuotedArguments] + "…"
	}
	return fmt.Sprintf("The arguments of this %s call were not valid JSON (a single JSON object), so it was not run. What arrived:\n%s\nSend the call again with valid JSON arguments.", tool, quoted)
}
