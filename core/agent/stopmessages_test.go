package agent

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestStopCarriesTheRunsMessages: the Stop point (pi's agent_end) is given
// every message the run added, the prompt first and the last answer last.
func TestStopCarriesTheRunsMessages(t *testing.T) {
	var got []core.Message
	ic := Interceptor{Name: "ext", Stop: func(_ context.Context, e StopEvent) (StopResult, error) {
		got = e.Messages
		return StopResult{}, nil
	}}
	f := newFixture(t, Config{Interceptors: []Interceptor{ic}}, faux.Response{Text: "done"})
	_ = f.s.Prompt("fix it", nil, BehaviorNone)
	f.untilSettled()
	if len(got) < 2 {
		t.Fatalf("Stop saw %d messages: %+v", len(got), got)
	}
	if u, ok := got[0].(*core.UserMessage); !ok || u.Text() != "fix it" {
		t.Errorf("first %+v", got[0])
	}
	if a, ok := got[len(got)-1].(*core.AssistantMessage); !ok || a.Content[0].Text != "done" {
		t.Errorf("last %+v", got[len(got)-1])
	}
}

// TestStopHandlersFollowUpIsAnswered: a follow-up a Stop handler queues
// (pi's agent_end sending one, as git-merge-and-resolve.ts does) is
// answered in the same run, not left waiting for the next prompt.
func TestStopHandlersFollowUpIsAnswered(t *testing.T) {
	var f *fixture
	sent := false
	ic := Interceptor{Name: "ext", Stop: func(_ context.Context, e StopEvent) (StopResult, error) {
		if !sent {
			sent = true
			if err := f.s.Prompt("resolve the conflicts", nil, BehaviorFollowUp); err != nil {
				t.Error(err)
			}
		}
		return StopResult{}, nil
	}}
	f = newFixture(t, Config{Interceptors: []Interceptor{ic}}, faux.Response{Text: "done"}, faux.Response{Text: "resolved"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.untilSettled()
	if f.fp.Calls() != 2 {
		t.Fatalf("%d requests, want the follow-up answered too", f.fp.Calls())
	}
	msgs := f.s.Messages()
	if a, ok := msgs[len(msgs)-1].(*core.AssistantMessage); !ok || a.Content[0].Text != "resolved" {
		t.Errorf("last message %+v", msgs[len(msgs)-1])
	}
}
