package pi

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// bashCall is a scripted answer that runs command with the bash tool.
func bashCall(id, command string) faux.Response {
	args, _ := json.Marshal(map[string]string{"command": command})
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash", Arguments: args}}}
}

// approvalRig is a server whose approval gate asks through the rpc UI.
func approvalRig(t *testing.T, timeout time.Duration, responses ...faux.Response) *rig {
	t.Helper()
	dir := t.TempDir()
	gate, err := approval.Open(approval.Config{Mode: approval.ModeDefault, Dir: dir,
		RulesFile: filepath.Join(dir, ".cairn", "approvals.json"), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return newRig(t, rigConfig{faux: faux.New(faux.Options{}, responses...), cwd: dir, approver: gate})
}

// ask waits for the approval question and checks that it names the tool
// and the command.
func (r *rig) ask(command string) *line {
	r.t.Helper()
	q := r.wait(map[string]any{"type": "extension_ui_request", "method": "select"})
	if !strings.Contains(q.str("title"), "bash: "+command) {
		r.t.Errorf("approval title does not name the command: %s", q.text)
	}
	// pi's select has no message: the rule remembering would save follows
	// the title.
	if !strings.Contains(q.str("title"), "Remembering allows bash: ") {
		r.t.Errorf("approval title does not say what remembering allows: %s", q.text)
	}
	return q
}

func (r *rig) answer(q *line, fields map[string]any) {
	r.t.Helper()
	msg := map[string]any{"type": "extension_ui_response", "id": q.str("id")}
	for k, v := range fields {
		msg[k] = v
	}
	r.send(msg)
}

func TestApprovalRoundTrip(t *testing.T) {
	t.Run("allow once", func(t *testing.T) {
		r := approvalRig(t, 0, bashCall("c1", "echo once"), faux.Response{Text: "done"})
		r.send(map[string]any{"id": "p", "type": "prompt", "message": "run it"})
		start := r.wait(map[string]any{"type": "tool_execution_start"})
		q := r.ask("echo once")
		if start.str("toolCallId") != "c1" || q.get("timeout") != nil {
			t.Errorf("question: %s", q.text)
		}
		if !sameJSON(q.get("options"), []any{approval.OptionAllowOnce.Label(), approval.OptionAllowSession.Label(), approval.OptionAllowAlways.Label(), approval.OptionDeny.Label(), approval.OptionDenyReason.Label()}) {
			t.Errorf("options: %s", q.text)
		}
		r.answer(q, map[string]any{"value": approval.OptionAllowOnce.Label()})
		end := r.wait(map[string]any{"type": "tool_execution_end"})
		if end.get("isError") != false || end.str("result.content.0.text") != "once\n" {
			t.Errorf("tool_execution_end: %s", end.text)
		}
		r.wait(map[string]any{"type": "agent_settled"})
		// The answer produced no response frame of its own.
		checkOneResponsePerFrame(t, r.out.all(), r.frames)
	})
	t.Run("allow always", func(t *testing.T) {
		r := approvalRig(t, 0, bashCall("c1", "echo always"), faux.Response{Text: "done"}, bashCall("c2", "echo always"), faux.Response{Text: "again"})
		r.send(map[string]any{"id": "p1", "type": "prompt", "message": "run it"})
		r.answer(r.ask("echo always"), map[string]any{"value": approval.OptionAllowAlways.Label()})
		r.wait(map[string]any{"type": "tool_execution_end", "isError": false})
		r.wait(map[string]any{"type": "agent_settled"})
		from := r.cursor
		r.send(map[string]any{"id": "p2", "type": "prompt", "message": "run it again"})
		end := r.wait(map[string]any{"type": "tool_execution_end"})
		if end.str("toolCallId") != "c2" || end.get("isError") != false {
			t.Errorf("second call: %s", end.text)
		}
		r.wait(map[string]any{"type": "agent_settled"})
		for _, l := range r.out.all()[from:] {
			if l.str("type") == "extension_ui_request" {
				t.Errorf("the second call was asked about: %s", l.text)
			}
		}
	})
	t.Run("deny with reason", func(t *testing.T) {
		r := approvalRig(t, 0, bashCall("c1", "rm -rf build"), faux.Response{Text: "ok"})
		r.send(map[string]any{"id": "p", "type": "prompt", "message": "clean"})
		r.answer(r.ask("rm -rf build"), map[string]any{"value": approval.OptionDenyReason.Label()})
		in := r.wait(map[string]any{"type": "extension_ui_request", "method": "input"})
		r.answer(in, map[string]any{"value": "use make clean instead"})
		end := r.wait(map[string]any{"type": "tool_execution_end"})
		if end.get("isError") != true || !strings.Contains(end.str("result.content.0.text"), "use make clean instead") {
			t.Errorf("denied call: %s", end.text)
		}
		r.wait(map[string]any{"type": "agent_settled"})
	})
	t.Run("timeout", func(t *testing.T) {
		r := approvalRig(t, 50*time.Millisecond, bashCall("c1", "echo late"), faux.Response{Text: "ok"})
		r.send(map[string]any{"id": "p", "type": "prompt", "message": "run"})
		q := r.ask("echo late")
		if q.get("timeout") != json.Number("50") {
			t.Errorf("the question does not say its timeout: %s", q.text)
		}
		end := r.wait(map[string]any{"type": "tool_execution_end"})
		if end.get("isError") != true || !strings.Contains(end.str("result.content.0.text"), "did not answer") {
			t.Errorf("unanswered call: %s", end.text)
		}
		// A late answer is ignored: no output, no effect.
		r.answer(q, map[string]any{"value": approval.OptionAllowOnce.Label()})
		r.wait(map[string]any{"type": "agent_settled"})
		r.send(map[string]any{"id": "s", "type": "get_state"})
		r.response("s")
		checkOneResponsePerFrame(t, r.out.all(), r.frames)
	})
	t.Run("abort while asking", func(t *testing.T) {
		r := approvalRig(t, 0, bashCall("c1", "echo x"))
		r.send(map[string]any{"id": "p", "type": "prompt", "message": "run"})
		r.ask("echo x")
		r.send(map[string]any{"id": "a", "type": "abort"})
		r.wait(map[string]any{"type": "agent_settled"})
		r.response("a")
	})
}
