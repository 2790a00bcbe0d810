package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// blockRm is a ToolCall handler that refuses commands starting with rm.
func blockRm(_ context.Context, e ToolCallEvent) (ToolCallResult, error) {
	var args struct{ Command string }
	_ = json.Unmarshal(e.Call.Arguments, &args)
	if strings.HasPrefix(args.Command, "rm ") {
		return ToolCallResult{Decision: CallBlock, Reason: "rm is not allowed here", Context: []string{"use git clean"}}, nil
	}
	return ToolCallResult{}, nil
}

// toolEnds returns the results of the calls in evs, by call id.
func toolEnds(evs []core.Event) map[string]core.ToolResult {
	out := map[string]core.ToolResult{}
	for _, e := range evs {
		if end, ok := e.(core.ToolExecutionEnd); ok {
			out[end.ToolCallID] = end.Result
		}
	}
	return out
}

func resultText(r core.ToolResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

func TestToolCallInterceptorBlocksWithAReasonTheModelReads(t *testing.T) {
	tool := &strictTool{}
	f := newFixture(t, Config{Tools: []core.Tool{tool}, Interceptors: []Interceptor{{Name: "guard", ToolCall: blockRm}}},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"rm -rf /"}`), toolCall("c2", "bash", `{"command":"ls"}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	ends := toolEnds(f.untilSettled())
	if r := ends["c1"]; !r.IsError || resultText(r) != "This tool call was blocked by guard: rm is not allowed here" {
		t.Errorf("blocked call's result %+v", r)
	}
	if r := ends["c2"]; r.IsError {
		t.Errorf("allowed call's result %+v", r)
	}
	if len(tool.runs) != 1 || !strings.Contains(tool.runs[0], "ls") {
		t.Errorf("tool ran %v, want only ls", tool.runs)
	}
	// The context follows the turn's results.
	msgs := f.s.Messages()
	if c, ok := msgs[4].(*core.CustomMessage); !ok || c.Content[0].Text != "use git clean" {
		t.Errorf("after the results: %+v", msgs[4])
	}
}

func TestFailingOrHangingToolCallInterceptorBlocksTheCall(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	cases := map[string]Interceptor{
		"error": {Name: "broken", ToolCall: func(context.Context, ToolCallEvent) (ToolCallResult, error) {
			return ToolCallResult{}, errors.New("exit status 1")
		}},
		"panic": {Name: "broken", ToolCall: func(context.Context, ToolCallEvent) (ToolCallResult, error) { panic("boom") }},
		// It ignores its context: the session stops waiting all the same.
		"hang": {Name: "broken", Timeout: 20 * time.Millisecond, ToolCall: func(context.Context, ToolCallEvent) (ToolCallResult, error) {
			<-release
			return ToolCallResult{Decision: CallAllow}, nil
		}},
	}
	wants := map[string]string{"error": "exit status 1", "panic": "panicked: boom", "hang": "did not answer within 20ms"}
	for name, ic := range cases {
		t.Run(name, func(t *testing.T) {
			tool := &strictTool{}
			f := newFixture(t, Config{Tools: []core.Tool{tool}, Interceptors: []Interceptor{ic}},
				faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}},
				faux.Response{Content: []core.Content{toolCall("c2", "bash", `{"command":"ls"}`)}},
				faux.Response{Text: "ok"})
			_ = f.s.Prompt("go", nil, BehaviorNone)
			evs := f.untilSettled()
			ends := toolEnds(evs)
			for _, id := range []string{"c1", "c2"} {
				if r := ends[id]; !r.IsError || !strings.Contains(resultText(r), "blocked because broken (tool call) failed: "+wants[name]) {
					t.Errorf("%s result %+v", id, r)
				}
			}
			if len(tool.runs) != 0 {
				t.Errorf("the tool ran: %v", tool.runs)
			}
			notices := 0
			for _, e := range evs {
				if n, ok := e.(core.Notice); ok && strings.Contains(n.Message, wants[name]) {
					notices++
				}
			}
			if notices != 1 {
				t.Errorf("the failure was shown %d times, want once", notices)
			}
		})
	}
}

func TestToolCallInterceptorArgumentsAreCheckedAgain(t *testing.T) {
	rewrite := func(args string) Interceptor {
		return Interceptor{Name: "rewriter", ToolCall: func(context.Context, ToolCallEvent) (ToolCallResult, error) {
			return ToolCallResult{Arguments: json.RawMessage(args)}, nil
		}}
	}
	tool := &strictTool{}
	approver := &recordingApprover{}
	f := newFixture(t, Config{Tools: []core.Tool{tool}, Approver: approver, Interceptors: []Interceptor{rewrite(`{"command":"ls -la"}`)}},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.untilSettled()
	if len(tool.runs) != 1 || tool.runs[0] != `{"command":"ls -la"}` || approver.seen[0] != tool.runs[0] {
		t.Errorf("tool ran %v, approver saw %v", tool.runs, approver.seen)
	}

	tool = &strictTool{}
	f = newFixture(t, Config{Tools: []core.Tool{tool}, Interceptors: []Interceptor{rewrite(`{"command":"ls","Command":"rm -rf /"}`)}},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	if r := toolEnds(f.untilSettled())["c1"]; !r.IsError || !strings.Contains(resultText(r), "rewriter changed its arguments") || len(tool.runs) != 0 {
		t.Errorf("result %+v, runs %v", r, tool.runs)
	}
}

// editTool writes the file its path names (it only records the call).
func editTool() *fakeTool {
	t := echoTool("write")
	t.category = core.CategoryEdit
	return t
}

func decide(d CallDecision) []Interceptor {
	return []Interceptor{{Name: "hook PreToolUse", ToolCall: func(context.Context, ToolCallEvent) (ToolCallResult, error) {
		return ToolCallResult{Decision: d, Reason: "policy says so"}, nil
	}}}
}

func questionFor(f *fixture) core.Question {
	f.t.Helper()
	var q core.Question
	f.until(func(e core.Event) bool {
		var ok bool
		q, ok = e.(core.Question)
		return ok
	})
	return q
}

func TestAllowSavesOnlyTheQuestionsARuleCould(t *testing.T) {
	// An ordinary write in default mode: allowed unasked.
	f := newFixture(t, Config{Tools: []core.Tool{editTool()}, Approver: approvalGate(t, 0), Interceptors: decide(CallAllow)},
		faux.Response{Content: []core.Content{toolCall("c1", "write", `{"path":"notes.txt"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	evs := f.untilSettled()
	for _, e := range evs {
		if q, ok := e.(core.Question); ok {
			t.Fatalf("asked %+v", q)
		}
	}
	if r := toolEnds(evs)["c1"]; r.IsError {
		t.Errorf("result %+v", r)
	}

	// A protected file: still asked, whatever the interceptor says.
	f = newFixture(t, Config{Tools: []core.Tool{editTool()}, Approver: approvalGate(t, 0), Interceptors: decide(CallAllow)},
		faux.Response{Content: []core.Content{toolCall("c1", "write", `{"path":"AGENTS.md"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	q := questionFor(f)
	if !strings.Contains(q.Message, "Careful") {
		t.Errorf("question %+v", q)
	}
	_ = f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionDeny)})
	if r := toolEnds(f.untilSettled())["c1"]; !r.IsError {
		t.Errorf("protected write ran: %+v", r)
	}
}

func TestAskForcesTheQuestionEvenInYolo(t *testing.T) {
	gate, err := approval.Open(approval.Config{Mode: approval.ModeYolo, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: gate, Interceptors: decide(CallAsk)},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	q := questionFor(f)
	if !strings.Contains(q.Message, "hook PreToolUse asks for this call to be approved: policy says so") {
		t.Errorf("question message %q", q.Message)
	}
	_ = f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionAllowOnce)})
	if r := toolEnds(f.untilSettled())["c1"]; r.IsError {
		t.Errorf("result %+v", r)
	}

	// Nobody to ask: refused, saying who wanted the question.
	f = newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: gate, Interceptors: decide(CallAsk), Unattended: true},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	if r := toolEnds(f.untilSettled())["c1"]; !r.IsError || !strings.Contains(resultText(r), "hook PreToolUse asks for this call to be approved by a person") {
		t.Errorf("result %+v", r)
	}

	// No approver at all: the session asks itself.
	f = newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Interceptors: decide(CallAsk)},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	q = questionFor(f)
	_ = f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionDeny)})
	if r := toolEnds(f.untilSettled())["c1"]; !r.IsError || !approval.IsDenial(resultText(r)) {
		t.Errorf("result %+v", r)
	}
}

// seenRequests records the system prompt and last message text of each request.
type seenRequests struct{ system, last []string }

func (r *seenRequests) step(answer string) faux.Step {
	return func(req *provider.Request) (faux.Response, error) {
		r.system = append(r.system, req.System)
		var last string
		if n := len(req.Messages); n > 0 {
			if u, ok := req.Messages[n-1].(*core.UserMessage); ok {
				last = u.Text()
			}
		}
		r.last = append(r.last, last)
		return faux.Response{Text: answer}, nil
	}
}

func TestInputInterceptor(t *testing.T) {
	input := func(e InputEvent) (InputResult, error) {
		switch {
		case e.Text == "fail":
			return InputResult{}, errors.New("crashed")
		case strings.HasPrefix(e.Text, "secret"):
			return InputResult{Action: InputBlock, Reason: "looks like a secret"}, nil
		case e.Text == "/mine":
			return InputResult{Action: InputHandled}, nil
		}
		return InputResult{Action: InputTransform, Text: strings.ToUpper(e.Text), Context: []string{"it is Friday"}}, nil
	}
	var reqs seenRequests
	f := newFixture(t, Config{Interceptors: []Interceptor{{Name: "hook UserPromptSubmit",
		Input: func(_ context.Context, e InputEvent) (InputResult, error) { return input(e) }}}})
	f.fp.PushStep(reqs.step("ok"))
	for _, text := range []string{"secret abc", "/mine", "fail"} {
		_ = f.s.Prompt(text, nil, BehaviorNone)
		f.untilSettled()
	}
	if f.fp.Calls() != 0 || len(f.s.Messages()) != 0 {
		t.Fatalf("a dropped prompt reached the model: %d calls, %d messages", f.fp.Calls(), len(f.s.Messages()))
	}
	_ = f.s.Prompt("hello", nil, BehaviorNone)
	f.untilSettled()
	msgs := f.s.Messages()
	if len(msgs) != 3 {
		t.Fatalf("messages %+v", msgs)
	}
	if u := msgs[0].(*core.UserMessage); u.Text() != "HELLO" {
		t.Errorf("prompt %q", u.Text())
	}
	if c, ok := msgs[1].(*core.CustomMessage); !ok || c.CustomType != ContextMessageType || c.Content[0].Text != "it is Friday" {
		t.Errorf("context message %+v", msgs[1])
	}
	if reqs.last[0] != "it is Friday" {
		t.Errorf("the model did not get the context: %q", reqs.last)
	}
}

func TestToolResultInterceptorReplacesTheResultAndAddsContext(t *testing.T) {
	ic := Interceptor{Name: "post", ToolResult: func(_ context.Context, e ToolResultEvent) (ToolResultResult, error) {
		r := core.ErrorResult("redacted " + e.Call.Name)
		return ToolResultResult{Result: &r, Context: []string{"lint found 2 problems"}}, nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{echoTool("read")}, Interceptors: []Interceptor{ic}},
		faux.Response{Content: []core.Content{toolCall("c1", "read", `{}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	evs := f.untilSettled()
	if r := toolEnds(evs)["c1"]; !r.IsError || resultText(r) != "redacted read" {
		t.Errorf("published result %+v", r)
	}
	msgs := f.s.Messages()
	res, ok1 := msgs[2].(*core.ToolResultMessage)
	ctx, ok2 := msgs[3].(*core.CustomMessage)
	if !ok1 || !ok2 || res.Content[0].Text != "redacted read" || ctx.Content[0].Text != "lint found 2 problems" {
		t.Fatalf("messages %+v", msgs)
	}
	end := evs[len(evs)-2].(core.AgentEnd)
	if len(end.Messages) != 5 {
		t.Errorf("agent_end carries %d messages, want 5 (the context too)", len(end.Messages))
	}
}

func TestStopInterceptorContinuesAtMostMaxStopContinuesTimes(t *testing.T) {
	var seen []int
	ic := Interceptor{Name: "hook Stop", Stop: func(_ context.Context, e StopEvent) (StopResult, error) {
		seen = append(seen, e.Continued)
		return StopResult{Continue: true, Reason: "the tests still fail"}, nil
	}}
	var reqs seenRequests
	f := newFixture(t, Config{Interceptors: []Interceptor{ic}})
	for range MaxStopContinues + 2 {
		f.fp.PushStep(reqs.step("done"))
	}
	_ = f.s.Prompt("fix it", nil, BehaviorNone)
	evs := f.untilSettled()
	if f.fp.Calls() != MaxStopContinues+1 {
		t.Errorf("%d seenRequests, want %d", f.fp.Calls(), MaxStopContinues+1)
	}
	if reqs.last[1] != "the tests still fail" || len(seen) != MaxStopContinues+1 || seen[len(seen)-1] != MaxStopContinues {
		t.Errorf("seenRequests end with %q; handler saw %v", reqs.last, seen)
	}
	var warned bool
	for _, e := range evs {
		if n, ok := e.(core.Notice); ok && strings.Contains(n.Message, "so it stops") {
			warned = true
		}
	}
	if !warned {
		t.Error("no notice said why the agent stopped")
	}
}

func TestBeforeAgentStartAddsSectionsForThePrompt(t *testing.T) {
	ic := Interceptor{Name: "ext", BeforeAgentStart: func(_ context.Context, e AgentStartEvent) (AgentStartResult, error) {
		return AgentStartResult{Sections: []core.PromptSection{{Name: "ext", Text: "Answer in French about " + e.Prompt}}}, nil
	}}
	var reqs seenRequests
	f := newFixture(t, Config{SystemPrompt: func([]core.Tool) string { return "base" }, Interceptors: []Interceptor{ic}})
	f.fp.PushStep(reqs.step("oui"))
	_ = f.s.Prompt("cheese", nil, BehaviorNone)
	f.untilSettled()
	if reqs.system[0] != "base\n\nAnswer in French about cheese" {
		t.Errorf("system %q", reqs.system[0])
	}
}

func TestContextInterceptorRewritesRequestsOnly(t *testing.T) {
	ic := Interceptor{Name: "ext", Context: func(_ context.Context, e ContextEvent) ([]core.Message, error) {
		return append(e.Messages, &core.UserMessage{Content: []core.Content{core.TextBlock("extra")}}), nil
	}}
	var reqs seenRequests
	f := newFixture(t, Config{Interceptors: []Interceptor{ic}})
	f.fp.PushStep(reqs.step("ok"))
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	f.untilSettled()
	if reqs.last[0] != "extra" || len(f.s.Messages()) != 2 {
		t.Errorf("request ended %q; conversation %d messages", reqs.last, len(f.s.Messages()))
	}
}

func TestBeforeCompactCancels(t *testing.T) {
	for name, handler := range map[string]func(context.Context, CompactEvent) (CompactResult, error){
		"cancel": func(context.Context, CompactEvent) (CompactResult, error) {
			return CompactResult{Cancel: true, Reason: "keep it all"}, nil
		},
		"fail": func(context.Context, CompactEvent) (CompactResult, error) {
			return CompactResult{}, errors.New("crashed")
		},
	} {
		// Handlers see a prepared compaction, as pi's do: the conversation
		// must have something to compact.
		f := newFixture(t, Config{Compaction: keepLittle, Interceptors: []Interceptor{{Name: "hook PreCompact", BeforeCompact: handler}}},
			faux.Response{Text: "a"}, faux.Response{Text: "b"})
		for _, q := range questions {
			_ = f.s.Prompt(q, nil, BehaviorNone)
			f.untilSettled()
		}
		_, err := f.s.Compact(context.Background(), "")
		if err == nil || !strings.Contains(err.Error(), "compaction cancelled") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSessionStartAndEnd(t *testing.T) {
	var starts []StartSource
	var ends []EndReason
	ic := Interceptor{Name: "hooks",
		SessionStart: func(_ context.Context, e SessionStartEvent) (Added, error) {
			starts = append(starts, e.Source)
			return Added{Context: []string{"branch main"}}, nil
		},
		SessionEnd: func(_ context.Context, e SessionEndEvent) error {
			ends = append(ends, e.Reason)
			return nil
		},
	}
	var reqs seenRequests
	f := newFixture(t, Config{Interceptors: []Interceptor{ic}})
	f.fp.PushStep(reqs.step("a"), reqs.step("b"), reqs.step("c"))
	for _, p := range []string{"one", "two"} {
		_ = f.s.Prompt(p, nil, BehaviorNone)
		f.untilSettled()
	}
	if len(starts) != 1 || starts[0] != StartStartup {
		t.Errorf("starts %v", starts)
	}
	if m, ok := f.s.Messages()[0].(*core.CustomMessage); !ok || m.Content[0].Text != "branch main" {
		t.Errorf("first message %+v", f.s.Messages()[0])
	}
	if err := f.s.NewConversation(""); err != nil {
		t.Fatal(err)
	}
	_ = f.s.Prompt("three", nil, BehaviorNone)
	f.untilSettled()
	f.s.Close()
	if len(starts) != 2 || starts[1] != StartClear || len(ends) != 2 || ends[0] != EndSwitch || ends[1] != EndExit {
		t.Errorf("starts %v, ends %v", starts, ends)
	}
}

func TestNotificationIsToldOfQuestions(t *testing.T) {
	told := make(chan NotificationEvent, 1)
	ic := Interceptor{Name: "hook Notification", Notification: func(_ context.Context, e NotificationEvent) error {
		told <- e
		return nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: approvalGate(t, 0), Interceptors: []Interceptor{ic}},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"make"}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	q := questionFor(f)
	select {
	case e := <-told:
		if e.Kind != NotifyPermission || e.Title != q.Title {
			t.Errorf("notification %+v", e)
		}
	case <-time.After(waitLimit):
		t.Fatal("no notification")
	}
	_ = f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionDeny)})
	f.untilSettled()
}

func TestUserBashFailureBlocks(t *testing.T) {
	f := newFixture(t, Config{Interceptors: []Interceptor{{Name: "ext", UserBash: func(context.Context, UserBashEvent) (UserBashResult, error) {
		return UserBashResult{}, errors.New("crashed")
	}}}})
	if r := f.s.InterceptUserBash(context.Background(), "ls"); r.Action != BashBlock || !strings.Contains(r.Reason, "crashed") {
		t.Errorf("result %+v", r)
	}
}

// TestChildConfigLeavesOutNotForChildren: a child session gets the
// parent's interceptors (hooks) but those that watch the person's own
// prompts, which a child's prompt, the model's words, must not pass for.
func TestChildConfigLeavesOutNotForChildren(t *testing.T) {
	f := newFixture(t, Config{Interceptors: []Interceptor{{Name: "hook"}, {Name: "skill grant", NotForChildren: true}}})
	var names []string
	for _, ic := range f.s.ChildConfig().Interceptors {
		names = append(names, ic.Name)
	}
	if len(names) != 1 || names[0] != "hook" {
		t.Errorf("child interceptors %q, want [hook]", names)
	}
	if len(f.s.cfg.Interceptors) != 2 {
		t.Errorf("the parent lost interceptors: %d", len(f.s.cfg.Interceptors))
	}
}
