package agent

import (
	"context"
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
