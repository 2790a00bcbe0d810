package agent

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

func custom(text string) *core.CustomMessage {
	return &core.CustomMessage{CustomType: "file-trigger", Content: []core.Content{core.TextBlock(text)}, Display: true}
}

// TestSendCustomIdle: an extension's message with triggerTurn starts a
// run the model answers; without it the message joins the conversation
// (a custom_message entry, announced) and nothing runs; with deliverAs
// nextTurn it goes with the next prompt.
func TestSendCustomIdle(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	convs := NewFileConversations(store, dir, store.Create(dir))
	f := newFixture(t, Config{Conversations: convs}, faux.Response{Text: "ran the tests"}, faux.Response{Text: "ok"})
	yes, no := true, false

	if err := f.s.SendCustom(custom("note only"), &no, ""); err != nil {
		t.Fatal(err)
	}
	if f.fp.Calls() != 0 || len(f.s.Messages()) != 1 {
		t.Fatalf("%d requests, %d messages", f.fp.Calls(), len(f.s.Messages()))
	}
	entries, _, _ := f.s.Entries()
	if c, ok := entries[len(entries)-1].Payload.(*session.CustomMessageEntry); !ok || c.CustomType != "file-trigger" || !c.Display {
		t.Errorf("entry %+v", entries[len(entries)-1].Payload)
	}

	if err := f.s.SendCustom(custom("External trigger: run the tests"), &yes, ""); err != nil {
		t.Fatal(err)
	}
	evs := f.untilSettled()
	started := false
	for _, e := range evs {
		if ms, ok := e.(core.MessageStart); ok {
			if c, ok := ms.Message.(*core.CustomMessage); ok && c.Content[0].Text == "External trigger: run the tests" {
				started = true
			}
		}
	}
	msgs := f.s.Messages()
	if !started || f.fp.Calls() != 1 || len(msgs) != 3 {
		t.Fatalf("announced %v, %d requests, %d messages", started, f.fp.Calls(), len(msgs))
	}

	if err := f.s.SendCustom(custom("context for the next prompt"), nil, DeliverNextTurn); err != nil {
		t.Fatal(err)
	}
	if f.fp.Calls() != 1 {
		t.Fatal("nextTurn started a run")
	}
	_ = f.s.Prompt("go on", nil, BehaviorNone)
	f.untilSettled()
	msgs = f.s.Messages()
	if c, ok := msgs[len(msgs)-2].(*core.CustomMessage); !ok || c.Content[0].Text != "context for the next prompt" {
		t.Errorf("before the answer: %+v", msgs[len(msgs)-2])
	}
	if err := f.s.SendCustom(custom("x"), nil, "later"); err == nil {
		t.Error("an unknown deliverAs was taken")
	}
}

// TestSendCustomWhileWorking: while a run works, an extension's message
// follows it (deliverAs followUp) and the model answers it in the same
// run; queue_update never lists it, as pi's does not.
func TestSendCustomWhileWorking(t *testing.T) {
	var f *fixture
	sent := false
	ic := Interceptor{Name: "ext", Stop: func(context.Context, StopEvent) (StopResult, error) {
		if !sent {
			sent = true
			if err := f.s.SendCustom(custom("External trigger: lint"), nil, DeliverFollowUp); err != nil {
				t.Error(err)
			}
		}
		return StopResult{}, nil
	}}
	f = newFixture(t, Config{Interceptors: []Interceptor{ic}}, faux.Response{Text: "a"}, faux.Response{Text: "linted"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	for _, e := range f.untilSettled() {
		if q, ok := e.(core.QueueUpdate); ok && len(q.FollowUp)+len(q.Steering) > 0 {
			t.Errorf("queue_update lists %+v", q)
		}
	}
	msgs := f.s.Messages()
	if f.fp.Calls() != 2 || len(msgs) != 4 {
		t.Fatalf("%d requests, %d messages", f.fp.Calls(), len(msgs))
	}
	if c, ok := msgs[2].(*core.CustomMessage); !ok || c.Content[0].Text != "External trigger: lint" {
		t.Errorf("third message %+v", msgs[2])
	}
}
