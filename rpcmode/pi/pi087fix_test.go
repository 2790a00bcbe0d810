package pi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
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

// TestSummarizationRetryEventShapes: the summary retry events are written
// as pi 0.87.1 writes them (recorded: a 503 on a manual compaction's
// summary request), and not at all in pi 0.73's shapes.
func TestSummarizationRetryEventShapes(t *testing.T) {
	for _, tt := range []struct {
		e    core.Event
		want string
	}{
		{core.SummarizationRetryScheduled{Attempt: 1, MaxAttempts: 3, Delay: 2 * time.Second, ErrorMessage: "503 overloaded"},
			`{"type":"summarization_retry_scheduled","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"503 overloaded"}`},
		{core.SummarizationRetryAttemptStart{Reason: core.CompactionManual},
			`{"type":"summarization_retry_attempt_start","source":"compaction","reason":"manual"}`},
		{core.SummarizationRetryFinished{}, `{"type":"summarization_retry_finished"}`},
	} {
		got, ok, err := AppendEvent(nil, tt.e, false)
		if err != nil || !ok || strings.TrimSpace(string(got)) != tt.want {
			t.Errorf("%T: %s (ok %v, %v), want %s", tt.e, got, ok, err, tt.want)
		}
		if _, ok, _ := AppendEvent(nil, tt.e, true); ok {
			t.Errorf("%T written in pi 0.73's shapes", tt.e)
		}
	}
}

// TestCompactWithNothingToSummarise: pi 0.87.1's answer, word for word,
// and no request to the model.
func TestCompactWithNothingToSummarise(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{}, faux.Response{Text: "an answer"})
	r.send(map[string]any{"id": "c", "type": "compact"})
	end := r.wait(map[string]any{"type": "compaction_end"})
	if end.str("errorMessage") != "Compaction failed: Nothing to compact (session too small)" || end.get("result") != nil {
		t.Errorf("compaction_end: %s", end.text)
	}
	if res := r.response("c"); res.get("success") != false || res.str("error") != "Nothing to compact (session too small)" {
		t.Errorf("compact: %s", res.text)
	}
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hi"})
	if r.wait(map[string]any{"type": "message_end", "message.role": "assistant"}).str("message.content.0.text") != "an answer" {
		t.Error("the compaction used the model's answer")
	}
}

// TestPi15AdditiveFields: pi 1.5's agent_settled.aborted and
// tool_execution_end.durationMs (absent for a call that did not run).
func TestPi15AdditiveFields(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{}, bashCall("c1", "echo hi"), faux.Response{Text: "done"})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "run"})
	end := r.wait(map[string]any{"type": "tool_execution_end"})
	if _, ok := end.get("durationMs").(json.Number); !ok {
		t.Errorf("tool_execution_end without durationMs: %s", end.text)
	}
	if st := r.wait(map[string]any{"type": "agent_settled"}); st.get("aborted") != false {
		t.Errorf("agent_settled: %s", st.text)
	}

	r2, _ := fauxRig(t, slow, faux.Response{Text: mediumText()})
	r2.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r2.wait(map[string]any{"type": "message_update"})
	r2.send(map[string]any{"id": "a", "type": "abort"})
	if st := r2.wait(map[string]any{"type": "agent_settled"}); st.get("aborted") != true {
		t.Errorf("agent_settled after abort: %s", st.text)
	}
}

// TestAbortSettlesWithAnError: cairn's own agent_settled.error is set on a
// user's abort too (a deliberate difference, in the README).
func TestAbortSettlesWithAnError(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: mediumText()})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.wait(map[string]any{"type": "message_update"})
	r.send(map[string]any{"id": "a", "type": "abort"})
	st := r.wait(map[string]any{"type": "agent_settled"})
	if st.str("error") != "request was aborted" {
		t.Errorf("agent_settled after abort has no error: %s", st.text)
	}
}
