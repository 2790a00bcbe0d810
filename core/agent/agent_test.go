package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const waitLimit = 10 * time.Second

// fixture is a session over the faux provider with an event recorder.
type fixture struct {
	t      *testing.T
	s      *Session
	fp     *faux.Provider
	events <-chan core.Event
	stop   func()
}

func newFixture(t *testing.T, cfg Config, responses ...faux.Response) *fixture {
	t.Helper()
	fp := faux.New(faux.Options{ChunkSize: 4}, responses...)
	if cfg.Model.ID == "" {
		cfg.Model = faux.Model
	}
	if cfg.Open == nil {
		cfg.Open = func(core.Model) (Connection, error) { return Connection{Provider: fp}, nil }
	}
	if cfg.Sleep == nil {
		cfg.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	events, stop := s.Subscribe()
	f := &fixture{t: t, s: s, fp: fp, events: events, stop: stop}
	t.Cleanup(func() { s.Close(); stop() })
	return f
}

// untilSettled collects events up to and including the next Settled.
func (f *fixture) untilSettled() []core.Event {
	f.t.Helper()
	var got []core.Event
	timeout := time.After(waitLimit)
	for {
		select {
		case e := <-f.events:
			got = append(got, e)
			if _, ok := e.(core.Settled); ok {
				return got
			}
		case <-timeout:
			f.t.Fatalf("no agent_settled within %s; events so far: %s", waitLimit, names(got))
		}
	}
}

// until collects events until pred matches one.
func (f *fixture) until(pred func(core.Event) bool) []core.Event {
	f.t.Helper()
	var got []core.Event
	timeout := time.After(waitLimit)
	for {
		select {
		case e := <-f.events:
			got = append(got, e)
			if pred(e) {
				return got
			}
		case <-timeout:
			f.t.Fatalf("event not seen within %s; events so far: %s", waitLimit, names(got))
		}
	}
}

// piKind names update kinds as the expected sequences below write them.
var piKind = map[core.UpdateKind]string{
	core.UpdateTextStart: "text_start", core.UpdateTextDelta: "text_delta", core.UpdateTextEnd: "text_end",
	core.UpdateThinkingStart: "thinking_start", core.UpdateThinkingDelta: "thinking_delta", core.UpdateThinkingEnd: "thinking_end",
	core.UpdateToolCallStart: "toolcall_start", core.UpdateToolCallDelta: "toolcall_delta", core.UpdateToolCallEnd: "toolcall_end",
}

func names(evs []core.Event) string {
	var out []string
	for _, e := range evs {
		n := e.EventType()
		switch e := e.(type) {
		case core.MessageStart:
			n += "(" + string(e.Message.MessageRole()) + ")"
		case core.MessageEnd:
			n += "(" + string(e.Message.MessageRole()) + ")"
		case core.MessageUpdate:
			n = "update:" + piKind[e.Kind]
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

func withoutUpdates(evs []core.Event) []core.Event {
	var out []core.Event
	for _, e := range evs {
		if _, ok := e.(core.MessageUpdate); !ok {
			out = append(out, e)
		}
	}
	return out
}

func toolCall(id, name, args string) core.Content {
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// fakeTool is a tool whose behaviour the test scripts.
type fakeTool struct {
	name     string
	category core.ApprovalCategory
	run      func(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error)
}

func (t *fakeTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: t.name, Description: "test tool", Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (t *fakeTool) Category() core.ApprovalCategory {
	if t.category == "" {
		return core.CategoryInfo
	}
	return t.category
}
func (t *fakeTool) Kind() core.ToolKind { return core.KindOther }
func (t *fakeTool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	return t.run(ctx, call, update)
}

func echoTool(name string) *fakeTool {
	return &fakeTool{name: name, run: func(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		return core.TextResult(name + " got " + string(call.Arguments)), nil
	}}
}

func TestPromptEventOrder(t *testing.T) {
	f := newFixture(t, Config{}, faux.Response{Text: "Hello there, friend"})
	if err := f.s.Prompt("hi", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	evs := f.untilSettled()
	want := "agent_start turn_start message_start(user) message_end(user) message_start(assistant) " +
		"update:text_start update:text_delta update:text_delta update:text_delta update:text_delta update:text_delta update:text_end " +
		"message_end(assistant) turn_end agent_end agent_settled"
	if got := names(evs); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	end := evs[len(evs)-2].(core.AgentEnd)
	if len(end.Messages) != 2 || end.Messages[1].(*core.AssistantMessage).Text() != "Hello there, friend" {
		t.Fatalf("agent_end messages = %+v", end.Messages)
	}
	if got := len(f.s.Messages()); got != 2 {
		t.Fatalf("context has %d messages, want 2", got)
	}
}

func TestUpdatesCarrySnapshotsThatNeverChange(t *testing.T) {
	f := newFixture(t, Config{}, faux.Response{Text: "abcdefghijkl"})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	var texts []string
	var snaps []*core.AssistantMessage
	for _, e := range f.untilSettled() {
		if u, ok := e.(core.MessageUpdate); ok && u.Kind == core.UpdateTextDelta {
			snaps = append(snaps, u.Message)
			texts = append(texts, u.Message.Content[0].Text)
		}
	}
	for i, m := range snaps {
		if m.Content[0].Text != texts[i] {
			t.Fatalf("snapshot %d changed after it was published", i)
		}
	}
	if texts[0] != "abcd" || texts[len(texts)-1] != "abcdefghijkl" {
		t.Fatalf("texts = %q", texts)
	}
}

// TestToolEndsAsEachFinishes checks pi's order: a call that finishes first
// is announced first, while the results still go in call order.
func TestToolEndsAsEachFinishes(t *testing.T) {
	release := make(chan struct{})
	tool := &fakeTool{name: "t", run: func(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		if string(call.Arguments) == `{"slow":true}` {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return core.TextResult("done " + call.ID), nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{tool}},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{"slow":true}`), toolCall("c2", "t", `{}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	first := f.until(func(e core.Event) bool { _, ok := e.(core.ToolExecutionEnd); return ok })
	if end := first[len(first)-1].(core.ToolExecutionEnd); end.ToolCallID != "c2" {
		t.Fatalf("first end is %s, want c2, which finished first", end.ToolCallID)
	}
	close(release)
	var results []string
	for _, e := range f.untilSettled() {
		if me, ok := e.(core.MessageEnd); ok {
			if r, ok := me.Message.(*core.ToolResultMessage); ok {
				results = append(results, r.ToolCallID)
			}
		}
	}
	if strings.Join(results, ",") != "c1,c2" {
		t.Errorf("results in %v, want call order", results)
	}
}

func TestParallelToolsResultsInCallOrder(t *testing.T) {
	var started sync.WaitGroup
	started.Add(2)
	both := make(chan struct{})
	go func() { started.Wait(); close(both) }()
	slow := &fakeTool{name: "slow", run: func(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
		started.Done()
		select {
		case <-both: // both calls run at once, or this would never return
		case <-ctx.Done():
		}
		update(core.ToolUpdate{Content: []core.Content{core.TextBlock("working")}})
		return core.TextResult("slow done " + string(call.Arguments)), nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{slow}},
		faux.Response{Content: []core.Content{toolCall("c1", "slow", `{"n":1}`), toolCall("c2", "slow", `{"n":2}`)}},
		faux.Response{Text: "all done"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	evs := withoutUpdates(f.untilSettled())
	// Each call's end comes when it finishes; the results enter the
	// conversation in call order.
	var order []string
	ends := 0
	for _, e := range evs {
		switch e := e.(type) {
		case core.ToolExecutionEnd:
			ends++
		case core.MessageEnd:
			if r, ok := e.Message.(*core.ToolResultMessage); ok {
				order = append(order, r.ToolCallID+":"+r.Content[0].Text)
			}
		}
	}
	if ends != 2 || strings.Join(order, ",") != `c1:slow done {"n":1},c2:slow done {"n":2}` {
		t.Fatalf("%d ends; tool results = %v", ends, order)
	}
	msgs := f.s.Messages()
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, string(m.MessageRole()))
	}
	if strings.Join(roles, ",") != "user,assistant,toolResult,toolResult,assistant" {
		t.Fatalf("history roles = %v", roles)
	}
	if msgs[2].(*core.ToolResultMessage).ToolCallID != "c1" || msgs[3].(*core.ToolResultMessage).ToolCallID != "c2" {
		t.Fatal("tool results are not in the model's call order")
	}
}

func TestUnknownToolGetsAnErrorResultAndTheTurnGoesOn(t *testing.T) {
	f := newFixture(t, Config{},
		faux.Response{Content: []core.Content{toolCall("c1", "nope", `{}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.untilSettled()
	res := f.s.Messages()[2].(*core.ToolResultMessage)
	if !res.IsError || res.Text() != "Tool nope not found" {
		t.Fatalf("result = %+v", res)
	}
	if f.s.Messages()[3].(*core.AssistantMessage).Text() != "ok" {
		t.Fatal("the turn did not go on after the error result")
	}
}

func TestAbortDuringStreamKeepsAbortedMessageAndNextPromptWorks(t *testing.T) {
	fp := faux.New(faux.Options{ChunkSize: 1, TokensPerSecond: 2000}, faux.Response{Text: strings.Repeat("word ", 2000)})
	var seen []*provider.Request
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		seen = append(seen, req)
		return faux.Response{Text: "second answer"}, nil
	})
	f := newFixture(t, Config{Open: func(core.Model) (Connection, error) { return Connection{Provider: fp}, nil }})
	_ = f.s.Prompt("long one", nil, BehaviorNone)
	f.until(func(e core.Event) bool { u, ok := e.(core.MessageUpdate); return ok && u.Kind == core.UpdateTextDelta })
	f.s.Abort()
	evs := f.untilSettled()
	var end *core.AssistantMessage
	for _, e := range evs {
		if me, ok := e.(core.MessageEnd); ok {
			end, _ = me.Message.(*core.AssistantMessage)
		}
	}
	if end == nil || end.StopReason != core.StopAborted {
		t.Fatalf("assistant end = %+v", end)
	}
	if err := f.s.Prompt("again", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	if len(seen) != 1 {
		t.Fatalf("second request not made")
	}
	last := f.s.Messages()[len(f.s.Messages())-1].(*core.AssistantMessage)
	if last.Text() != "second answer" {
		t.Fatalf("last answer = %q", last.Text())
	}
}

func TestAbortDuringToolEndsEveryCallWithAResult(t *testing.T) {
	running := make(chan struct{})
	blocker := &fakeTool{name: "block", run: func(ctx context.Context, _ core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		close(running)
		<-ctx.Done()
		return core.ToolResult{}, ctx.Err()
	}}
	f := newFixture(t, Config{Tools: []core.Tool{blocker}},
		faux.Response{Content: []core.Content{toolCall("c1", "block", `{}`)}})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	<-running
	f.s.Abort()
	evs := f.untilSettled()
	msgs := f.s.Messages()
	res, ok := msgs[len(msgs)-1].(*core.ToolResultMessage)
	if !ok || !res.IsError || res.Text() != textAborted {
		t.Fatalf("last message = %#v", msgs[len(msgs)-1])
	}
	if names(evs[len(evs)-2:]) != "agent_end agent_settled" {
		t.Fatalf("tail = %s", names(evs))
	}
	if f.fp.Calls() != 1 {
		t.Fatalf("a request was made after the abort")
	}
}

type fakeApprover struct {
	decide func(core.ToolCall) approval.Decision
}

func (a fakeApprover) Check(_ context.Context, _ core.Tool, call core.ToolCall, _ core.Asker) approval.Decision {
	return a.decide(call)
}

func TestDenialReasonReachesTheModel(t *testing.T) {
	tool := echoTool("bash")
	var second *provider.Request
	f := newFixture(t, Config{Tools: []core.Tool{tool}, Approver: fakeApprover{func(core.ToolCall) approval.Decision {
		return approval.Decision{Allow: false, By: approval.ByPerson, Reason: "use make instead"}
	}}}, faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"rm -rf x"}`)}})
	f.fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		second = req
		return faux.Response{Text: "understood"}, nil
	})
	_ = f.s.Prompt("clean", nil, BehaviorNone)
	f.untilSettled()
	if second == nil {
		t.Fatal("the turn did not go on after the denial")
	}
	res := second.Messages[2].(*core.ToolResultMessage)
	if !res.IsError || !strings.Contains(res.Text(), "use make instead") {
		t.Fatalf("tool result sent to the model = %+v", res)
	}
}

// TestSteeringWaitsForTheTurnsToolsByDefault: as in pi 0.87, a steering
// message that arrives while the turn's calls are prepared lets them run
// and comes after their results (pi 0.73 skipped them: interrupt mode
// immediate, below).
func TestSteeringWaitsForTheTurnsToolsByDefault(t *testing.T) {
	var f *fixture
	tool := echoTool("t")
	approver := fakeApprover{func(core.ToolCall) approval.Decision {
		if err := f.s.Steer("change of plan", nil); err != nil {
			t.Error(err)
		}
		return approval.Decision{Allow: true}
	}}
	var second *provider.Request
	f = newFixture(t, Config{Tools: []core.Tool{tool}, Approver: approver},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{}`)}})
	f.fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		second = req
		return faux.Response{Text: "ok"}, nil
	})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	evs := f.untilSettled()
	if strings.Count(names(evs), "agent_start") != 1 {
		t.Fatalf("steering started a new run: %s", names(evs))
	}
	if res := second.Messages[2].(*core.ToolResultMessage); res.IsError || res.Text() == textSkipped {
		t.Fatalf("the call did not run: %+v", res)
	}
	if steer := second.Messages[3].(*core.UserMessage); steer.Content[0].Text != "change of plan" {
		t.Fatalf("steering message = %+v", steer)
	}
	if st := f.s.State(); st.InterruptMode != InterruptWait {
		t.Errorf("interrupt mode = %q, want wait", st.InterruptMode)
	}
}

func TestSteeringSkipsPendingCallsAndComesNext(t *testing.T) {
	var f *fixture
	tool := echoTool("t")
	approver := fakeApprover{func(core.ToolCall) approval.Decision {
		if err := f.s.Steer("change of plan", nil); err != nil {
			t.Error(err)
		}
		return approval.Decision{Allow: true}
	}}
	var second *provider.Request
	f = newFixture(t, Config{Tools: []core.Tool{tool}, Approver: approver, InterruptMode: InterruptImmediate},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{}`)}})
	f.fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		second = req
		return faux.Response{Text: "ok"}, nil
	})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	evs := f.untilSettled()
	if strings.Count(names(evs), "agent_start") != 1 {
		t.Fatalf("steering started a new run: %s", names(evs))
	}
	res := second.Messages[2].(*core.ToolResultMessage)
	if res.Text() != textSkipped {
		t.Fatalf("skipped call result = %q", res.Text())
	}
	steer := second.Messages[3].(*core.UserMessage)
	if steer.Content[0].Text != "change of plan" {
		t.Fatalf("steering message = %+v", steer)
	}
}

func TestFollowUpRunsWhenTheAgentWouldStop(t *testing.T) {
	release := make(chan struct{})
	tool := &fakeTool{name: "wait", run: func(ctx context.Context, _ core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		<-release
		return core.TextResult("waited"), nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{tool}},
		faux.Response{Content: []core.Content{toolCall("c1", "wait", `{}`)}},
		faux.Response{Text: "first done"},
		faux.Response{Text: "follow-up done"})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	f.until(func(e core.Event) bool { _, ok := e.(core.ToolExecutionStart); return ok })
	if err := f.s.Prompt("busy?", nil, BehaviorNone); !errors.Is(err, ErrBusy) {
		t.Fatalf("prompt while busy = %v, want ErrBusy", err)
	}
	if err := f.s.FollowUp("and then this", nil); err != nil {
		t.Fatal(err)
	}
	if st := f.s.State(); st.PendingMessageCount != 1 || !st.IsStreaming {
		t.Fatalf("state = %+v", st)
	}
	close(release)
	evs := f.untilSettled()
	if strings.Count(names(evs), "agent_start") != 0 || strings.Count(names(evs), "agent_settled") != 1 {
		t.Fatalf("follow-up should run inside the same run: %s", names(evs))
	}
	msgs := f.s.Messages()
	if last := msgs[len(msgs)-1].(*core.AssistantMessage); last.Text() != "follow-up done" {
		t.Fatalf("last = %q", last.Text())
	}
	if u := msgs[len(msgs)-2].(*core.UserMessage); u.Content[0].Text != "and then this" {
		t.Fatalf("follow-up message = %+v", u)
	}
}

func TestProviderErrorSettlesOnceWithTheError(t *testing.T) {
	f := newFixture(t, Config{Retry: DefaultRetry}, faux.Response{Text: "part", Error: "bad request"})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	settled := evs[len(evs)-1].(core.Settled)
	if settled.Error != "bad request" {
		t.Fatalf("settled = %+v", settled)
	}
	if strings.Contains(names(evs), "auto_retry") {
		t.Fatalf("a non-retryable error was retried: %s", names(evs))
	}
}

func TestSetThinkingAndModel(t *testing.T) {
	reasoning := faux.Model
	reasoning.ID, reasoning.Reasoning = "faux-think", true
	f := newFixture(t, Config{Model: reasoning, Thinking: core.ThinkingMedium, Models: []core.Model{reasoning, faux.Model}})
	if lvl, ok := f.s.CycleThinkingLevel(); !ok || lvl != core.ThinkingHigh {
		t.Fatalf("cycle = %s %v", lvl, ok)
	}
	next, ok, err := f.s.CycleModel()
	if err != nil || !ok || next.ID != "faux-1" {
		t.Fatalf("cycle model = %v %v %v", next.ID, ok, err)
	}
	if st := f.s.State(); st.Thinking != core.ThinkingOff {
		t.Fatalf("thinking on a non-reasoning model = %s", st.Thinking)
	}
	if err := f.s.SetThinkingLevel(core.ThinkingHigh); err == nil {
		t.Fatal("a non-reasoning model accepted a thinking level")
	}
	if err := f.s.SetSteeringMode("sometimes"); err == nil {
		t.Fatal("bad queue mode accepted")
	}
}

func TestThinkingIsClampedToWhatTheModelOffers(t *testing.T) {
	m := faux.Model
	m.Reasoning = true
	if got := ClampThinking(m, core.ThinkingXHigh); got != core.ThinkingHigh {
		t.Fatalf("xhigh on a model without it = %s, want high", got)
	}
	m.ID = "gpt-5.2"
	if got := ClampThinking(m, core.ThinkingXHigh); got != core.ThinkingXHigh {
		t.Fatalf("xhigh on gpt-5.2 = %s", got)
	}
	if got := ClampThinking(faux.Model, core.ThinkingHigh); got != core.ThinkingOff {
		t.Fatalf("thinking on a model without reasoning = %s", got)
	}
}

// TestToolsListsTheSessionsTools: front ends read the session's tools from
// the session (MCP tools included), as a copy they cannot change.
func TestToolsListsTheSessionsTools(t *testing.T) {
	a, b := echoTool("a"), echoTool("mcp__srv__b")
	f := newFixture(t, Config{Tools: []core.Tool{a, b}})
	got := f.s.Tools()
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("Tools() = %v", got)
	}
	got[0] = nil
	if f.s.Tools()[0] != a {
		t.Error("changing the returned list changed the session's tools")
	}
}

func TestThinkingLevels(t *testing.T) {
	for _, c := range []struct {
		m    core.Model
		want []core.ThinkingLevel
	}{
		{core.Model{ID: "plain"}, []core.ThinkingLevel{core.ThinkingOff}},
		{core.Model{ID: "claude-sonnet-4-5", Reasoning: true}, []core.ThinkingLevel{core.ThinkingOff, core.ThinkingMinimal, core.ThinkingLow, core.ThinkingMedium, core.ThinkingHigh}},
		{core.Model{ID: "gpt-5.2", Reasoning: true}, core.ThinkingLevels},
	} {
		if got := ThinkingLevels(c.m); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.m.ID, got, c.want)
		}
	}
}

// TestMaxTokensCapsRequests: Config.MaxTokens (--max-tokens) reaches every
// request when it is below the model's maximum, and only then.
func TestMaxTokensCapsRequests(t *testing.T) {
	for _, c := range []struct{ limit, want int }{{100, 100}, {0, 0}, {1 << 20, 0}} {
		f := newFixture(t, Config{MaxTokens: c.limit})
		var got *provider.Request
		f.fp.PushStep(func(req *provider.Request) (faux.Response, error) {
			got = req
			return faux.Response{Text: "ok"}, nil
		})
		_ = f.s.Prompt("go", nil, BehaviorNone)
		f.untilSettled()
		if got == nil || got.MaxTokens != c.want {
			t.Errorf("MaxTokens %d: request %+v", c.limit, got)
		}
	}
}

// TestDequeueAnnouncesAfterTurnStart: as in pi 0.87.1, a queued message
// taken for the next turn is announced (queue_update) after that turn's
// turn_start, just before it enters the conversation.
func TestDequeueAnnouncesAfterTurnStart(t *testing.T) {
	var f *fixture
	tool := echoTool("t")
	approver := fakeApprover{func(core.ToolCall) approval.Decision {
		if err := f.s.Steer("change of plan", nil); err != nil {
			t.Error(err)
		}
		return approval.Decision{Allow: true}
	}}
	f = newFixture(t, Config{Tools: []core.Tool{tool}, Approver: approver},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{}`)}}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	got := names(withoutUpdates(f.untilSettled()))
	if !strings.Contains(got, "turn_end turn_start queue_update message_start(user)") {
		t.Errorf("events: %s", got)
	}
}
