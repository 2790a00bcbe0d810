package acp

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// The permission request keeps the card's own title (Zed keeps the last
// title a card was sent) and offers one "always" option, named for the
// rule it remembers for this session.
func TestPermissionKeepsCardTitleAndOneAlways(t *testing.T) {
	r, _, _, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "done"})
	want := ""
	for _, l := range r.out.all() {
		if l.str("params.update.sessionUpdate") == "tool_call" && l.str("params.update.toolCallId") == "call_1" {
			want = l.str("params.update.title")
		}
	}
	if got := perm.str("params.toolCall.title"); got != want || strings.HasPrefix(got, "Allow") {
		t.Errorf("permission title = %q, want the card's %q", got, want)
	}
	var always []map[string]any
	for _, o := range perm.get("params.options").([]any) {
		if m := o.(map[string]any); m["kind"] == "allow_always" {
			always = append(always, m)
		}
	}
	if len(always) != 1 {
		t.Fatalf("allow_always options = %v, want exactly one", always)
	}
	if name, _ := always[0]["name"].(string); !strings.Contains(name, "a.txt") || !strings.Contains(name, "this session") {
		t.Errorf("always option name = %q, want it to say the file it allows and for how long", name)
	}
	if always[0]["optionId"] != "allow_session" {
		t.Errorf("always option = %v, want the session rule (nothing written to the project)", always[0])
	}
	r.answer(perm, selected("allow_session"))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
}

// Each retry is shown as it starts, so the editor is not left silent while
// cairn waits to try again.
func TestRetryIsVisible(t *testing.T) {
	r := newRig(t, rigConfig{retry: true})
	r.faux.PushStep(func(*provider.Request) (faux.Response, error) {
		return faux.Response{}, &provider.Error{Status: 500, Message: "internal server error", Retryable: true}
	})
	r.faux.Push(faux.Response{Text: "recovered"})
	sid := r.newSession()
	id := r.prompt(sid, "hi")
	thought := r.update("agent_thought_chunk", nil)
	if text := thought.str("params.update.content.text"); !strings.Contains(text, "retrying in 2s") || !strings.Contains(text, "attempt 1 of 2") || !strings.Contains(text, "internal server error") {
		t.Errorf("retry update = %q", text)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
}
