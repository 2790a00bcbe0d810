package pi

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestSessionCommandsAnswerCancelled: an extension that cancels a session
// change (pi's session_before_switch, session_before_fork) makes
// new_session and fork answer {"cancelled": true}, as pi does, and the
// session stays where it was.
func TestSessionCommandsAnswerCancelled(t *testing.T) {
	var kinds []agent.SwitchKind
	ic := agent.Interceptor{Name: "extension \"guard\"", BeforeSwitch: func(_ context.Context, e agent.SwitchEvent) (agent.SwitchResult, error) {
		kinds = append(kinds, e.Kind)
		return agent.SwitchResult{Cancel: true}, nil
	}}
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}, faux.Response{Text: "answer"}), interceptors: []agent.Interceptor{ic}})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hello"})
	r.response("p")
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "fm", "type": "get_fork_messages"})
	fm := r.response("fm")
	r.send(map[string]any{"id": "n", "type": "new_session"})
	if n := r.response("n"); n.text != `{"id":"n","type":"response","command":"new_session","success":true,"data":{"cancelled":true}}` {
		t.Errorf("new_session: %s", n.text)
	}
	r.send(map[string]any{"id": "fk", "type": "fork", "entryId": fm.str("data.messages.0.entryId")})
	if res := r.response("fk"); res.get("success") != true || res.get("data.cancelled") != true || res.str("data.text") != "" {
		t.Errorf("fork: %s", res.text)
	}
	r.send(map[string]any{"id": "st", "type": "get_state"})
	if st := r.response("st"); st.get("data.messageCount") != json.Number("2") {
		t.Errorf("get_state after the cancels: %s", st.text)
	}
	if len(kinds) != 2 || kinds[0] != agent.SwitchNew || kinds[1] != agent.SwitchFork {
		t.Errorf("asked about %v", kinds)
	}
}
