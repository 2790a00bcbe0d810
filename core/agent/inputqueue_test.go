package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// A message sent while the agent works reaches the Input handlers with the
// queue it waited in (pi's streamingBehavior); one that starts a run, with
// none.
func TestInputHandlersSeeWhichQueueAMessageCameFrom(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]Behavior{}
	ic := Interceptor{Name: "watch", Input: func(_ context.Context, e InputEvent) (InputResult, error) {
		mu.Lock()
		seen[e.Text] = e.Queued
		mu.Unlock()
		return InputResult{}, nil
	}}
	var f *fixture
	approver := fakeApprover{func(core.ToolCall) approval.Decision {
		if err := f.s.Steer("change of plan", nil); err != nil {
			t.Error(err)
		}
		if err := f.s.FollowUp("and then this", nil); err != nil {
			t.Error(err)
		}
		return approval.Decision{Allow: true}
	}}
	f = newFixture(t, Config{Tools: []core.Tool{echoTool("t")}, Approver: approver, Interceptors: []Interceptor{ic}},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{}`)}}, faux.Response{Text: "ok"}, faux.Response{Text: "done"})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	f.untilSettled()
	mu.Lock()
	defer mu.Unlock()
	want := map[string]Behavior{"start": BehaviorNone, "change of plan": BehaviorSteer, "and then this": BehaviorFollowUp}
	for text, q := range want {
		if got, ok := seen[text]; !ok || got != q {
			t.Errorf("%q: queue %q (seen %v), want %q", text, got, ok, q)
		}
	}
}

// BeforeAgentStart handlers are told the run's tools and what the prompt
// is built from (pi's systemPromptOptions).
func TestBeforeAgentStartSeesToolsAndPromptOptions(t *testing.T) {
	var got AgentStartEvent
	ic := Interceptor{Name: "watch", BeforeAgentStart: func(_ context.Context, e AgentStartEvent) (AgentStartResult, error) {
		got = e
		return AgentStartResult{}, nil
	}}
	opts := PromptOptions{Cwd: "/p", Append: "be brief", ContextFiles: []PromptFile{{Path: "AGENTS.md", Content: "x"}}}
	f := newFixture(t, Config{Tools: []core.Tool{echoTool("read"), echoTool("bash")}, Interceptors: []Interceptor{ic},
		PromptOptions: func() PromptOptions { return opts }}, faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.untilSettled()
	if strings.Join(got.Tools, ",") != "read,bash" || got.Options.Cwd != "/p" || got.Options.Append != "be brief" || len(got.Options.ContextFiles) != 1 {
		t.Errorf("event %+v", got)
	}
}
