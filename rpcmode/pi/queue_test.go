package pi

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

func TestClearQueueReturnsWhatWasQueued(t *testing.T) {
	// The steering messages are sent once the model has been asked (a run
	// takes what is queued before its first request, as pi's does), and
	// the model answers only once the queue is cleared: no message can be
	// delivered first, however fast or slow the machine is.
	asked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock)
	r, fp := fauxRig(t, slow)
	fp.PushStep(func(*provider.Request) (faux.Response, error) {
		close(asked)
		<-release
		return faux.Response{Text: mediumText()}, nil
	})
	fp.Push(faux.Response{Text: "not wanted"})
	r.send(map[string]any{"id": "idle", "type": "clear_queue"})
	if res := r.response("idle"); !sameJSON(res.get("data"), map[string]any{"steering": []any{}, "followUp": []any{}}) {
		t.Errorf("clear_queue while idle: %s", res.text)
	}

	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.response("p")
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the model was never asked")
	}
	r.send(map[string]any{"id": "s1", "type": "steer", "message": "change direction"})
	r.response("s1")
	r.send(map[string]any{"id": "s2", "type": "steer", "message": "and this"})
	r.response("s2")
	r.send(map[string]any{"id": "f", "type": "follow_up", "message": "summarize when done"})
	r.response("f")

	// pi's Esc: clear_queue, then abort; the texts go back to the editor.
	r.send(map[string]any{"id": "c", "type": "clear_queue"})
	q := r.wait(map[string]any{"type": "queue_update"})
	if !sameJSON(q.get("steering"), []any{}) || !sameJSON(q.get("followUp"), []any{}) {
		t.Errorf("queue_update after clear_queue: %s", q.text)
	}
	res := r.response("c")
	unblock()
	want := map[string]any{"steering": []any{"change direction", "and this"}, "followUp": []any{"summarize when done"}}
	if !sameJSON(res.get("data"), want) {
		t.Errorf("clear_queue: %s", res.text)
	}
	r.send(map[string]any{"id": "a", "type": "abort"})
	r.response("a")
	r.send(map[string]any{"id": "st", "type": "get_state"})
	if st := r.response("st"); st.get("data.pendingMessageCount") != json.Number("0") {
		t.Errorf("after clear_queue and abort: %s", st.text)
	}
	if n := count(r.out.all(), "agent_start"); n != 1 {
		t.Errorf("%d runs: the cleared messages were delivered", n)
	}
}

// TestPromptDisposition: pi 0.99's responses say whether a prompt started
// a run or was queued; pi 0.73's shapes have no data.
func TestPromptDisposition(t *testing.T) {
	for _, compat := range []bool{false, true} {
		name := "0.87"
		if compat {
			name = "0.73"
		}
		t.Run(name, func(t *testing.T) {
			fp := faux.New(slow, faux.Response{Text: mediumText()}, faux.Response{Text: "a"}, faux.Response{Text: "b"}, faux.Response{Text: "c"})
			r := newRig(t, rigConfig{faux: fp, compat073: compat})
			steps := []struct {
				cmd  map[string]any
				want string
			}{
				{map[string]any{"id": "p", "type": "prompt", "message": "talk"}, "started"},
				{map[string]any{"id": "s", "type": "steer", "message": "s1"}, "queued"},
				{map[string]any{"id": "f", "type": "follow_up", "message": "f1"}, "queued"},
				{map[string]any{"id": "ps", "type": "prompt", "message": "p1", "streamingBehavior": "steer"}, "queued"},
			}
			for _, st := range steps {
				r.send(st.cmd)
				res := r.response(st.cmd["id"].(string))
				want := any(map[string]any{"disposition": st.want})
				if compat {
					want = nil
				}
				if res.get("success") != true || !sameJSON(res.get("data"), want) {
					t.Errorf("%s: want data %v: %s", st.cmd["type"], want, res.text)
				}
			}
			r.send(map[string]any{"id": "busy", "type": "prompt", "message": "refused"})
			if res := r.response("busy"); res.get("success") != false || res.get("data") != nil {
				t.Errorf("a refused prompt has no disposition: %s", res.text)
			}
			r.send(map[string]any{"id": "a", "type": "abort"})
			r.response("a")
		})
	}
}
