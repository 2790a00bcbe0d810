package acp

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestZedStyleThreads drives cairn as Zed does: one connection per agent and
// project, every thread opened on it, closed, and reopened from history,
// each thread keeping its own conversation.
func TestZedStyleThreads(t *testing.T) {
	r := newRig(t, rigConfig{files: true, responses: []faux.Response{
		{Text: "answer a1"}, {Text: "answer b1"}, {Text: "answer a2"}, {Text: "answer b2"}}})
	r.result("initialize", map[string]any{"protocolVersion": 1})
	a := r.newSession()
	if got := r.response(r.prompt(a, "one")).str("result.stopReason"); got != "end_turn" {
		t.Fatalf("thread a: %q", got)
	}
	b := r.newSession()
	if b == a {
		t.Fatal("a second thread got the first one's id")
	}
	if got := r.response(r.prompt(b, "two")).str("result.stopReason"); got != "end_turn" {
		t.Fatalf("thread b: %q", got)
	}
	// Closing a thread: it takes no more prompts; the other is unaffected.
	r.result("session/close", map[string]any{"sessionId": a})
	if code := r.response(r.prompt(a, "x")).get("error.code"); code != float64(CodeResourceNotFound) {
		t.Errorf("prompt to a closed thread: code %v", code)
	}
	listed := r.result("session/list", map[string]any{"cwd": r.cwd})
	var ids []string
	for _, s := range listed["sessions"].([]any) {
		ids = append(ids, s.(map[string]any)["sessionId"].(string))
	}
	if !slices.Contains(ids, a) || !slices.Contains(ids, b) {
		t.Errorf("session/list = %v, want both threads", ids)
	}
	// Reopening the closed thread from history replays its own
	// conversation only.
	from := len(r.out.all())
	r.result("session/load", map[string]any{"sessionId": a, "cwd": r.cwd, "mcpServers": []any{}})
	var replayed []string
	for _, l := range r.out.all()[from:] {
		if l.get("method") != "session/update" {
			continue
		}
		if l.str("params.sessionId") != a {
			t.Errorf("an update of another thread during the load: %s", l.text)
		}
		switch l.str("params.update.sessionUpdate") {
		case "user_message_chunk", "agent_message_chunk":
			replayed = append(replayed, l.str("params.update.content.text"))
		}
	}
	if !slices.Equal(replayed, []string{"one", "answer a1"}) {
		t.Errorf("replay of thread a = %q", replayed)
	}
	for _, th := range []struct{ id, want string }{{a, "answer a2"}, {b, "answer b2"}} {
		from := len(r.out.all())
		if got := r.response(r.prompt(th.id, "more")).str("result.stopReason"); got != "end_turn" {
			t.Errorf("thread %s after the reopen: %q", th.id, got)
		}
		var said string
		for _, l := range r.out.all()[from:] {
			if l.str("params.update.sessionUpdate") == "agent_message_chunk" && l.str("params.sessionId") == th.id {
				said += l.str("params.update.content.text")
			}
		}
		if said != th.want {
			t.Errorf("thread %s answered %q, want %q", th.id, said, th.want)
		}
	}
	if bad := r.out.badLines(); len(bad) > 0 {
		t.Errorf("lines that are not frames: %q", bad)
	}
}

// A thread that was never prompted (so not stored yet) can still be
// resumed while it is open, and a second session/new leaves it as it was.
func TestNeverPromptedThreadResumes(t *testing.T) {
	r := newRig(t, rigConfig{files: true, responses: []faux.Response{{Text: "hello"}}})
	a := r.newSession()
	b := r.newSession()
	res := r.response(r.call("session/resume", map[string]any{"sessionId": a, "cwd": r.cwd, "mcpServers": []any{}}))
	if res.get("error") != nil {
		t.Fatalf("resume of a thread never prompted: %s", res.text)
	}
	if got := r.response(r.prompt(a, "hi")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("thread a: %q", got)
	}
	if res := r.response(r.call("session/resume", map[string]any{"sessionId": b, "cwd": r.cwd, "mcpServers": []any{}})); res.get("error") != nil {
		t.Errorf("resume of the other: %s", res.text)
	}
}

// A host that cannot open sessions holds one at a time: a second
// session/new is refused saying so, and after session/close a new one
// opens.
func TestSingleSessionHostAfterClose(t *testing.T) {
	r := newRig(t, rigConfig{single: true, responses: []faux.Response{{Text: "again"}}})
	a := r.newSession()
	l := r.response(r.call("session/new", map[string]any{"cwd": r.cwd, "mcpServers": []any{}}))
	if l.get("error.code") != float64(CodeInvalidRequest) || !strings.Contains(l.str("error.message"), "close the open one first") {
		t.Errorf("second session/new on a single-session host: %s", l.text)
	}
	r.result("session/close", map[string]any{"sessionId": a})
	b := r.newSession()
	if got := r.response(r.prompt(b, "hi")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("after close: %q", got)
	}
}
