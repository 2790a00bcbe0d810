package pi

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestFollowUpWhileIdleIsQueued: pi 0.87.1 queues a follow_up sent while
// idle (queue_update, no run); the next prompt runs first and the
// follow-up comes after its answer, in the same run.
func TestFollowUpWhileIdleIsQueued(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{}, faux.Response{Text: "to the prompt"}, faux.Response{Text: "to the follow-up"})
	r.send(map[string]any{"id": "f", "type": "follow_up", "message": "FOLLOW"})
	q := r.wait(map[string]any{"type": "queue_update"})
	if !sameJSON(q.get("followUp"), []any{"FOLLOW"}) {
		t.Errorf("queue_update: %s", q.text)
	}
	if res := r.response("f"); !sameJSON(res.get("data"), map[string]any{"disposition": "queued"}) {
		t.Errorf("follow_up while idle: %s", res.text)
	}
	r.send(map[string]any{"id": "s", "type": "get_state"})
	if st := r.response("s"); st.get("data.isStreaming") != false || st.get("data.pendingMessageCount") != json.Number("1") {
		t.Errorf("get_state: %s", st.text)
	}
	if n := count(r.out.all(), "agent_start"); n != 0 {
		t.Fatalf("the follow-up started a run")
	}
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "PROMPT"})
	r.wait(map[string]any{"type": "agent_settled"})
	var users []string
	for _, l := range r.out.all() {
		if l.str("type") == "message_start" && l.str("message.role") == "user" {
			users = append(users, l.str("message.content.0.text"))
		}
	}
	if !sameJSON(users, []string{"PROMPT", "FOLLOW"}) || count(r.out.all(), "agent_start") != 1 {
		t.Errorf("user messages %v in %d runs, want PROMPT then FOLLOW in one", users, count(r.out.all(), "agent_start"))
	}
}
