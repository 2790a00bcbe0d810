package agent

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestAllAtOnceAnnouncesEachMessage: in AllAtOnce mode the steering
// messages enter the conversation in one turn, and, as in pi 0.87.1, a
// queue_update before each still lists those yet to enter.
func TestAllAtOnceAnnouncesEachMessage(t *testing.T) {
	var f *fixture
	approver := fakeApprover{func(core.ToolCall) approval.Decision {
		for _, text := range []string{"first steer", "second steer"} {
			if err := f.s.Steer(text, nil); err != nil {
				t.Error(err)
			}
		}
		return approval.Decision{Allow: true}
	}}
	f = newFixture(t, Config{Tools: []core.Tool{echoTool("t")}, Approver: approver, SteeringMode: AllAtOnce},
		faux.Response{Content: []core.Content{toolCall("c1", "t", `{}`)}},
		faux.Response{Text: "both"})
	_ = f.s.Prompt("start", nil, BehaviorNone)
	var got []string
	for _, e := range f.untilSettled() {
		switch e := e.(type) {
		case core.QueueUpdate:
			got = append(got, "queue["+strings.Join(e.Steering, ",")+"]")
		case core.MessageStart:
			if u, ok := e.Message.(*core.UserMessage); ok {
				got = append(got, u.Content[0].Text)
			}
		}
	}
	want := []string{"start", "queue[first steer]", "queue[first steer,second steer]", "queue[second steer]", "first steer", "queue[]", "second steer"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("queue updates and user messages\n got %q\nwant %q", got, want)
	}
}
