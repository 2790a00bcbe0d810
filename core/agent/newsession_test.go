package agent

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestNewConversationForAnExtension: an extension's command, still
// running in the prompt that typed it, starts a new conversation (pi's
// ctx.newSession): the prompt is aborted, the conversation is empty, and
// front ends are told; a BeforeSwitch handler that says no cancels it.
func TestNewConversationForAnExtension(t *testing.T) {
	inCommand := make(chan struct{})
	refuse := false
	ic := Interceptor{Name: "ext",
		Input: func(ctx context.Context, e InputEvent) (InputResult, error) {
			if e.Text != "/handoff" {
				return InputResult{}, nil
			}
			close(inCommand)
			<-ctx.Done() // the command awaits ctx.newSession
			return InputResult{Action: InputHandled}, nil
		},
		BeforeSwitch: func(context.Context, SwitchEvent) (SwitchResult, error) {
			return SwitchResult{Cancel: refuse, Reason: "not now"}, nil
		},
	}
	f := newFixture(t, Config{Interceptors: []Interceptor{ic}}, faux.Response{Text: "an answer"})
	_ = f.s.Prompt("first", nil, BehaviorNone)
	f.untilSettled()
	_ = f.s.Prompt("/handoff", nil, BehaviorNone)
	<-inCommand
	cancelled, err := f.s.NewConversationFor(t.Context(), "/s/old.jsonl")
	if err != nil || cancelled {
		t.Fatalf("cancelled %v, %v", cancelled, err)
	}
	if n := len(f.s.Messages()); n != 0 {
		t.Errorf("the new conversation holds %d messages", n)
	}
	f.until(func(e core.Event) bool {
		r, ok := e.(core.ConversationReplaced)
		return ok && r.Parent == "/s/old.jsonl"
	})

	refuse = true
	_ = f.s.Prompt("again", nil, BehaviorNone)
	f.untilSettled()
	if cancelled, err := f.s.NewConversationFor(t.Context(), ""); err != nil || !cancelled {
		t.Errorf("a refused switch: cancelled %v, %v", cancelled, err)
	}
	if n := len(f.s.Messages()); n == 0 {
		t.Error("the refused switch emptied the conversation")
	}
}
