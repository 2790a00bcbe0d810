package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// initWith initializes the rig's server with the client capabilities given.
func (r *rig) initWith(fsRead, fsWrite, terminal bool) {
	r.t.Helper()
	r.result("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{
		"fs": map[string]any{"readTextFile": fsRead, "writeTextFile": fsWrite}, "terminal": terminal}})
}

// noClientCalls fails when cairn sent any fs or terminal request.
func noClientCalls(t *testing.T, r *rig) {
	t.Helper()
	for _, l := range r.out.all() {
		m := l.str("method")
		if strings.HasPrefix(m, "fs/") || strings.HasPrefix(m, "terminal/") {
			t.Errorf("cairn called %s of a client that did not offer it: %s", m, l.text)
		}
	}
}

// toolResult is the text of the session's tool result for call id.
func toolResult(t *testing.T, r *rig, id string) string {
	t.Helper()
	for _, m := range r.sess.Messages() {
		if tr, ok := m.(*core.ToolResultMessage); ok && tr.ToolCallID == id {
			return core.PlainText(tr.Content)
		}
	}
	t.Fatalf("no tool result for %s", id)
	return ""
}

func TestEditThroughTheClientsFiles(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		editCall("call_1", "a.txt", "one", "two"), {Text: "edited"}}})
	path := filepath.Join(r.cwd, "a.txt")
	writeFile(t, path, "one\n")
	r.initWith(true, true, false)
	sid := r.newSession()
	id := r.prompt(sid, "edit it")

	read := r.request("fs/read_text_file")
	if read.str("params.path") != path || read.str("params.sessionId") != sid {
		t.Errorf("fs/read_text_file params: %s", read.text)
	}
	// The editor's buffer holds an unsaved line the disk does not.
	r.answer(read, map[string]any{"content": "one\nunsaved\n"})
	write := r.request("fs/write_text_file")
	if write.str("params.path") != path || write.str("params.content") != "two\nunsaved\n" {
		t.Errorf("fs/write_text_file params: %s", write.text)
	}
	r.answer(write, nil)
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := readFile(t, path); got != "one\n" {
		t.Errorf("the file on disk = %q; the editor, not cairn, writes it", got)
	}
	golden(t, r, "edit-through-client-files")
}

func TestClientWithoutCapabilitiesIsNotCalled(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		editCall("call_1", "a.txt", "one", "two"),
		toolCallResponse("call_2", "bash", `{"command":"echo local"}`), {Text: "done"}}})
	path := filepath.Join(r.cwd, "a.txt")
	writeFile(t, path, "one\n")
	r.initWith(false, false, false)
	sid := r.newSession()
	r.response(r.prompt(sid, "go"))
	if got := readFile(t, path); got != "two\n" {
		t.Errorf("file = %q", got)
	}
	if got := toolResult(t, r, "call_2"); !strings.Contains(got, "local") {
		t.Errorf("the bash result = %s", got)
	}
	noClientCalls(t, r)
}

func TestReadOnlyClientFilesWriteLocally(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		editCall("call_1", "a.txt", "one", "two"), {Text: "done"}}})
	path := filepath.Join(r.cwd, "a.txt")
	writeFile(t, path, "one\n")
	r.initWith(true, false, false)
	sid := r.newSession()
	id := r.prompt(sid, "go")
	r.answer(r.request("fs/read_text_file"), map[string]any{"content": "one\n"})
	r.response(id)
	if got := readFile(t, path); got != "two\n" {
		t.Errorf("file = %q, want the local write", got)
	}
}

func TestClientFileErrorsReachTheModel(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, callLimit: 50 * time.Millisecond, responses: []faux.Response{
		toolCallResponse("call_1", "read", `{"path":"a.txt"}`),
		toolCallResponse("call_2", "read", `{"path":"b.txt"}`), {Text: "done"}}})
	r.initWith(true, true, false)
	sid := r.newSession()
	id := r.prompt(sid, "go")
	first := r.request("fs/read_text_file")
	r.send(map[string]any{"jsonrpc": "2.0", "id": first.get("id"), "error": map[string]any{"code": -32002, "message": "Resource not found"}})
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	// The second read is never answered: cairn gives up after its limit
	// and withdraws the request.
	second := r.request("fs/read_text_file")
	cancel := r.wait("$/cancel_request", func(l *line) bool { return l.get("method") == "$/cancel_request" })
	if cancel.get("params.requestId") != second.get("id") {
		t.Errorf("$/cancel_request for %v, want %v", cancel.get("params.requestId"), second.get("id"))
	}
	failed := r.update("tool_call_update", map[string]any{"toolCallId": "call_2", "status": "failed"})
	if !strings.Contains(failed.text, "did not answer fs/read_text_file within 50ms") {
		t.Errorf("the timed-out read: %s", failed.text)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := toolResult(t, r, "call_1"); !strings.Contains(got, "the editor refused fs/read_text_file: Resource not found") {
		t.Errorf("the model was told %s", got)
	}
	// A late answer to the withdrawn request is ignored.
	r.answer(second, map[string]any{"content": "late"})
}

func TestBashInTheClientsTerminal(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"make test"}`), {Text: "done"}}})
	r.initWith(false, false, true)
	sid := r.newSession()
	id := r.prompt(sid, "test it")
	create := r.request("terminal/create")
	args, _ := create.get("params.args").([]any)
	if create.str("params.command") == "" || fmt.Sprint(args) != "[-c make test]" || create.str("params.cwd") != r.cwd ||
		create.get("params.outputByteLimit") != float64(1<<20) || create.str("params.sessionId") != sid {
		t.Errorf("terminal/create params: %s", create.text)
	}
	r.answer(create, map[string]any{"terminalId": "term-1"})
	shown := r.update("tool_call_update", map[string]any{"toolCallId": "call_1"})
	for !strings.Contains(shown.text, `"terminalId":"term-1"`) {
		shown = r.update("tool_call_update", map[string]any{"toolCallId": "call_1"})
	}
	wait := r.request("terminal/wait_for_exit")
	if wait.str("params.terminalId") != "term-1" {
		t.Errorf("wait_for_exit params: %s", wait.text)
	}
	r.answer(wait, map[string]any{"exitCode": 2, "signal": nil})
	out := r.request("terminal/output")
	r.answer(out, map[string]any{"output": "FAIL x_test\n", "truncated": false, "exitStatus": map[string]any{"exitCode": 2}})
	r.answer(r.request("terminal/release"), nil)
	done := r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if !strings.Contains(done.text, `{"type":"terminal","terminalId":"term-1"}`) || !strings.Contains(done.text, "Command exited with code 2") {
		t.Errorf("the failed call: %s", done.text)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := toolResult(t, r, "call_1"); !strings.Contains(got, "FAIL x_test") || !strings.Contains(got, "Command exited with code 2") {
		t.Errorf("the model was told %s", got)
	}
	// One in_progress per call: later updates carry only content.
	inProgress := 0
	for _, l := range r.out.all() {
		if l.str("params.update.toolCallId") == "call_1" && l.str("params.update.status") == "in_progress" {
			inProgress++
		}
	}
	if inProgress != 1 {
		t.Errorf("%d in_progress updates for one call, want 1", inProgress)
	}
	golden(t, r, "bash-in-client-terminal")
}

func TestCancelInTheClientsTerminal(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"sleep 100"}`)}})
	r.initWith(false, false, true)
	sid := r.newSession()
	id := r.prompt(sid, "wait")
	r.answer(r.request("terminal/create"), map[string]any{"terminalId": "t"})
	wait := r.request("terminal/wait_for_exit")
	r.notify("session/cancel", map[string]any{"sessionId": sid})
	cancel := r.wait("$/cancel_request", func(l *line) bool { return l.get("method") == "$/cancel_request" })
	if cancel.get("params.requestId") != wait.get("id") {
		t.Errorf("$/cancel_request for %v, want the wait %v", cancel.get("params.requestId"), wait.get("id"))
	}
	r.answer(r.request("terminal/kill"), nil)
	r.answer(r.request("terminal/output"), map[string]any{"output": "", "truncated": false})
	r.answer(r.request("terminal/release"), nil)
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if got := r.response(id).str("result.stopReason"); got != "cancelled" {
		t.Errorf("stopReason = %q", got)
	}
}

func TestClientTerminalTimeout(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"sleep 100","timeout":0.05}`), {Text: "too slow"}}})
	r.initWith(false, false, true)
	sid := r.newSession()
	id := r.prompt(sid, "wait")
	r.answer(r.request("terminal/create"), map[string]any{"terminalId": "t"})
	r.request("terminal/wait_for_exit")
	r.answer(r.request("terminal/kill"), nil)
	r.answer(r.request("terminal/output"), map[string]any{"output": "zzz\n", "truncated": true})
	r.answer(r.request("terminal/release"), nil)
	r.response(id)
	got := toolResult(t, r, "call_1")
	if !strings.Contains(got, "Command timed out after 0.05 seconds") || !strings.Contains(got, "kept only the end of the output") {
		t.Errorf("the model was told %s", got)
	}
}

func TestPlanUpdates(t *testing.T) {
	r := newRig(t, rigConfig{files: true, responses: []faux.Response{
		toolCallResponse("call_1", "todo_write", `{"todos":[{"content":"read the code","status":"completed","activeForm":"reading the code"},{"content":"fix the bug","status":"in_progress","activeForm":"fixing the bug"}]}`),
		toolCallResponse("call_2", "todo_write", `{"todos":[{"content":"x","status":"done","activeForm":"x"}]}`),
		{Text: "planned"}}})
	sid := r.newSession()
	id := r.prompt(sid, "plan it")
	plan := r.update("plan", nil)
	want := `[{"content":"read the code","priority":"medium","status":"completed"},{"content":"fix the bug","priority":"medium","status":"in_progress"}]`
	if got, _ := json.Marshal(plan.get("params.update.entries")); string(got) != want {
		t.Errorf("plan entries = %s, want %s", got, want)
	}
	// An invalid plan fails the call and sends no plan.
	failed := r.update("tool_call", map[string]any{"toolCallId": "call_2", "status": "failed"})
	if !strings.Contains(failed.text, `todos[0].status must be pending, in_progress or completed`) {
		t.Errorf("the invalid plan: %s", failed.text)
	}
	r.response(id)
	plans := 0
	for _, l := range r.out.all() {
		if l.get("params.update.sessionUpdate") == "plan" {
			plans++
		}
	}
	if plans != 1 {
		t.Errorf("%d plan updates, want 1", plans)
	}
	// The plan is shown once, as the plan: no tool card beside it.
	for _, l := range r.out.all() {
		if l.str("params.update.toolCallId") == "call_1" {
			t.Errorf("the plan call also got a card: %s", l.text)
		}
	}
	golden(t, r, "plan")
	// Loading the session shows the plan again.
	r.result("session/load", map[string]any{"sessionId": sid, "cwd": r.cwd, "mcpServers": []any{}})
	replayed := 0
	for _, l := range r.out.all() {
		if l.get("params.update.sessionUpdate") == "plan" {
			replayed++
		}
	}
	if replayed != 2 {
		t.Errorf("%d plan updates after the load, want 2 (one replayed)", replayed)
	}
}
