//go:build unix

package acp

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// Background commands reach an ACP client as tool output: the start's
// title says where it runs and its result gives the id and the output
// file; bash_output and kill_shell are titled by the id they act on.
func TestBackgroundCommandsAsToolOutput(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, processes: true, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"echo ready; exec sleep 1000","run_in_background":true}`),
		toolCallResponse("call_2", "bash_output", `{"bash_id":"bash_1","filter":"ready","wait":10}`),
		toolCallResponse("call_3", "kill_shell", `{"shell_id":"bash_1"}`),
		{Text: "stopped"},
	}})
	sid := r.newSession()
	r.prompt(sid, "run it in the background")
	for _, want := range []struct{ id, title, kind, result string }{
		{"call_1", "echo ready; exec sleep 1000 (in the background)", "execute", "Started in the background as bash_1"},
		{"call_2", "bash_output bash_1", "read", "bash_1: running"},
		{"call_3", "kill_shell bash_1", "execute", "Killed bash_1"},
	} {
		call := r.update("tool_call", map[string]any{"toolCallId": want.id})
		if call.str("params.update.title") != want.title || call.str("params.update.kind") != want.kind {
			t.Errorf("tool_call %s: %s", want.id, call.text)
		}
		done := r.update("tool_call_update", map[string]any{"toolCallId": want.id, "status": "completed"})
		if !strings.Contains(done.text, want.result) {
			t.Errorf("%s ended with %s, want %q", want.id, done.text, want.result)
		}
	}
	if n := r.sess.Processes().Running(); n != 0 {
		t.Errorf("%d background commands still run after kill_shell", n)
	}
}
