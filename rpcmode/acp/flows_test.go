package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// toolCall is a scripted answer calling one tool.
func toolCallResponse(id, name, args string) faux.Response {
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}}}
}

func editCall(id, path, oldText, newText string) faux.Response {
	args, _ := json.Marshal(map[string]any{"path": path, "edits": []any{map[string]string{"oldText": oldText, "newText": newText}}})
	return toolCallResponse(id, "edit", string(args))
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInitializeIsTruthful(t *testing.T) {
	for _, files := range []bool{true, false} {
		r := newRig(t, rigConfig{files: files, single: true})
		// Unknown fields and _meta are tolerated.
		res := r.result("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true}, "terminal": true}, "_meta": map[string]any{"x": 1}, "future": true})
		if res["protocolVersion"] != float64(1) {
			t.Errorf("protocolVersion = %v, want 1", res["protocolVersion"])
		}
		caps := res["agentCapabilities"].(map[string]any)
		if caps["loadSession"] != files {
			t.Errorf("loadSession = %v with session files %v", caps["loadSession"], files)
		}
		pc := caps["promptCapabilities"].(map[string]any)
		if pc["image"] != true || pc["embeddedContext"] != true || pc["audio"] != false {
			t.Errorf("promptCapabilities = %v", pc)
		}
		if mcp := caps["mcpCapabilities"].(map[string]any); mcp["http"] != false || mcp["sse"] != false {
			t.Errorf("mcpCapabilities = %v", mcp)
		}
		// A later protocol version is answered with the one cairn speaks.
		if res := r.result("initialize", map[string]any{"protocolVersion": 7}); res["protocolVersion"] != float64(1) {
			t.Errorf("initialize with version 7 answered %v", res["protocolVersion"])
		}
	}
}

func TestTextTurn(t *testing.T) {
	r := newRig(t, rigConfig{responses: []faux.Response{{Thinking: "pondering", Text: "Hello from a scripted model, in several chunks."}}})
	sid := r.newSession()
	commands := r.update("available_commands_update", nil)
	if commands.str("params.sessionId") != sid {
		t.Errorf("available_commands_update for %q, want %q", commands.str("params.sessionId"), sid)
	}
	id := r.prompt(sid, "hi")
	r.update("agent_thought_chunk", nil)
	var text strings.Builder
	for {
		l := r.wait("chunk or response", func(l *line) bool {
			return l.get("params.update.sessionUpdate") == "agent_message_chunk" || l.get("id") == float64(id)
		})
		if l.get("id") == float64(id) {
			if got := l.str("result.stopReason"); got != "end_turn" {
				t.Fatalf("stopReason = %q, want end_turn: %s", got, l.text)
			}
			break
		}
		text.WriteString(l.str("params.update.content.text"))
	}
	if text.String() != "Hello from a scripted model, in several chunks." {
		t.Errorf("chunks say %q", text.String())
	}
	// Nothing of the turn follows its response: the next frame is the
	// answer to the next request.
	next := r.call("initialize", map[string]any{"protocolVersion": 1})
	after := r.wait("next frame", func(*line) bool { return true })
	if after.get("id") != float64(next) {
		t.Errorf("after the prompt response came %s", after.text)
	}
	golden(t, r, "text-turn")
}

// editFlow runs one edit in default mode up to its permission request.
func editFlow(t *testing.T, responses ...faux.Response) (*rig, string, int, *line) {
	t.Helper()
	r := newRig(t, rigConfig{responses: responses})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	sid := r.newSession()
	id := r.prompt(sid, "edit it")
	call := r.update("tool_call", map[string]any{"toolCallId": "call_1"})
	if call.str("params.update.status") != "pending" || call.str("params.update.kind") != "edit" {
		t.Errorf("tool_call = %s", call.text)
	}
	if call.str("params.update.locations.0.path") != "" {
		// locations is an array; checked below.
	}
	locs, _ := call.get("params.update.locations").([]any)
	if len(locs) != 1 || locs[0].(map[string]any)["path"] != filepath.Join(r.cwd, "a.txt") {
		t.Errorf("locations = %v", locs)
	}
	perm := r.request("session/request_permission")
	if perm.str("params.toolCall.toolCallId") != "call_1" || perm.str("params.sessionId") != sid {
		t.Errorf("request_permission = %s", perm.text)
	}
	kinds := map[string]bool{}
	for _, o := range perm.get("params.options").([]any) {
		kinds[o.(map[string]any)["kind"].(string)] = true
	}
	for _, k := range []string{"allow_once", "allow_always", "reject_once", "reject_always"} {
		if !kinds[k] {
			t.Errorf("no %s option: %s", k, perm.text)
		}
	}
	return r, sid, id, perm
}

func TestEditAllowOnce(t *testing.T) {
	r, _, id, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "done"})
	r.answer(perm, selected(optionOfKind(t, perm, "allow_once")))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "in_progress"})
	done := r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	content, _ := done.get("params.update.content").([]any)
	if len(content) != 1 {
		t.Fatalf("completed content = %v", content)
	}
	diff := content[0].(map[string]any)
	if diff["type"] != "diff" || diff["path"] != filepath.Join(r.cwd, "a.txt") || diff["oldText"] != "one" || diff["newText"] != "two" {
		t.Errorf("diff = %v", diff)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "two\n" {
		t.Errorf("file = %q", got)
	}
	golden(t, r, "edit-allow-once")
}

func TestEditRejectOnce(t *testing.T) {
	r, _, id, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "ok, not editing"})
	r.answer(perm, selected(optionOfKind(t, perm, "reject_once")))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "one\n" {
		t.Errorf("file = %q, want it unchanged", got)
	}
	golden(t, r, "edit-reject-once")
}

func TestEditAllowAlways(t *testing.T) {
	r, sid, id, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "done"},
		editCall("call_2", "a.txt", "two", "three"), faux.Response{Text: "done again"})
	r.answer(perm, selected(optionOfKind(t, perm, "allow_always")))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	r.response(id)
	id = r.prompt(sid, "again")
	r.update("tool_call_update", map[string]any{"toolCallId": "call_2", "status": "completed"})
	r.response(id)
	for _, l := range r.out.all() {
		if l.get("method") == "session/request_permission" && l.str("params.toolCall.toolCallId") == "call_2" {
			t.Errorf("the remembered call was asked about again: %s", l.text)
		}
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "three\n" {
		t.Errorf("file = %q", got)
	}
	golden(t, r, "edit-allow-always")
}

func TestEditRejectAlways(t *testing.T) {
	r, sid, id, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "no"},
		editCall("call_2", "a.txt", "one", "three"), faux.Response{Text: "still no"})
	r.answer(perm, selected("reject_always"))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	r.response(id)
	id = r.prompt(sid, "again")
	r.update("tool_call_update", map[string]any{"toolCallId": "call_2", "status": "failed"})
	r.response(id)
	for _, l := range r.out.all() {
		if l.get("method") == "session/request_permission" && l.str("params.toolCall.toolCallId") == "call_2" {
			t.Errorf("a tool refused for good was asked about again: %s", l.text)
		}
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "one\n" {
		t.Errorf("file = %q", got)
	}
}

func TestCancelDuringPermission(t *testing.T) {
	r, sid, id, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"))
	r.notify("session/cancel", map[string]any{"sessionId": sid})
	// The client answers its pending request with cancelled, as it must.
	r.answer(perm, map[string]any{"outcome": map[string]any{"outcome": "cancelled"}})
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	resp := r.response(id)
	if got := resp.str("result.stopReason"); got != "cancelled" {
		t.Errorf("stopReason = %q: %s", got, resp.text)
	}
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "one\n" {
		t.Errorf("file = %q", got)
	}
	golden(t, r, "cancel-during-permission")
}

func TestCancelRunningTool(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"echo started; sleep 30"}`)}})
	sid := r.newSession()
	id := r.prompt(sid, "run it")
	call := r.update("tool_call", map[string]any{"toolCallId": "call_1"})
	if call.str("params.update.kind") != "execute" {
		t.Errorf("bash kind = %q", call.str("params.update.kind"))
	}
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "in_progress"})
	r.notify("session/cancel", map[string]any{"sessionId": sid})
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if got := r.response(id).str("result.stopReason"); got != "cancelled" {
		t.Errorf("stopReason = %q", got)
	}
	// The session is usable after a cancel.
	r.faux.Push(faux.Response{Text: "back"})
	if got := r.response(r.prompt(sid, "hello")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason after a cancel = %q", got)
	}
}

func TestLoadReplaysHistory(t *testing.T) {
	r := newRig(t, rigConfig{files: true, mode: approval.ModeYolo, responses: []faux.Response{
		{Text: "first answer"},
		toolCallResponse("call_r", "read", `{"path":"a.txt"}`),
		{Text: "read it"},
	}})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "content\n")
	first := r.newSession()
	r.response(r.prompt(first, "question one"))
	r.response(r.prompt(first, "read a.txt"))
	second := r.newSession()
	if second == first {
		t.Fatal("session/new reused the session")
	}
	id := r.call("session/load", map[string]any{"sessionId": first, "cwd": r.cwd, "mcpServers": []any{}})
	r.update("user_message_chunk", map[string]any{"content.text": "question one"})
	r.update("agent_message_chunk", map[string]any{"content.text": "first answer"})
	r.update("user_message_chunk", map[string]any{"content.text": "read a.txt"})
	r.update("tool_call", map[string]any{"toolCallId": "call_r", "kind": "read"})
	r.update("tool_call_update", map[string]any{"toolCallId": "call_r", "status": "completed"})
	r.update("agent_message_chunk", map[string]any{"content.text": "read it"})
	resp := r.response(id)
	if resp.get("error") != nil {
		t.Fatalf("session/load failed: %s", resp.text)
	}
	for _, l := range r.out.all() {
		if l.get("method") == "session/update" && l.str("params.sessionId") == second && l.str("params.update.sessionUpdate") == "user_message_chunk" {
			t.Errorf("the new session replayed another's history: %s", l.text)
		}
	}
	// Both sessions take prompts.
	r.faux.Push(faux.Response{Text: "continued"}, faux.Response{Text: "second answer"})
	if got := r.response(r.prompt(first, "more")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	if got := r.response(r.prompt(second, "x")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("the other session: stopReason = %q", got)
	}
	if code := r.response(r.call("session/load", map[string]any{"sessionId": "no-such-session", "cwd": r.cwd, "mcpServers": []any{}})).get("error.code"); code != float64(CodeResourceNotFound) {
		t.Errorf("load of an unknown session: code %v", code)
	}
	golden(t, r, "load-replay")
}

func TestModeChange(t *testing.T) {
	r := newRig(t, rigConfig{responses: []faux.Response{editCall("call_1", "a.txt", "one", "two"), {Text: "done"}}})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	sid := r.newSession()
	id := r.call("session/set_mode", map[string]any{"sessionId": sid, "modeId": "auto_edit"})
	r.update("current_mode_update", map[string]any{"currentModeId": "auto_edit"})
	r.update("config_option_update", nil)
	if l := r.response(id); l.get("error") != nil {
		t.Fatalf("set_mode: %s", l.text)
	}
	if r.gate.Mode() != approval.ModeAutoEdit {
		t.Errorf("gate mode = %s", r.gate.Mode())
	}
	pid := r.prompt(sid, "edit")
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	r.response(pid)
	for _, l := range r.out.all() {
		if l.get("method") == "session/request_permission" {
			t.Errorf("auto_edit asked about an edit: %s", l.text)
		}
	}
	// The mode as a config option, back to default.
	res := r.result("session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "value": "default"})
	if r.gate.Mode() != approval.ModeDefault {
		t.Errorf("gate mode = %s", r.gate.Mode())
	}
	opts, _ := res["configOptions"].([]any)
	if len(opts) != 3 || opts[0].(map[string]any)["currentValue"] != "default" {
		t.Errorf("configOptions = %v", opts)
	}
	for _, bad := range []map[string]any{
		{"sessionId": sid, "modeId": "planning"},
		{"sessionId": sid},
	} {
		if code := r.response(r.call("session/set_mode", bad)).get("error.code"); code != float64(CodeInvalidParams) {
			t.Errorf("set_mode %v: code %v", bad, code)
		}
	}
	if code := r.response(r.call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "thought_level", "value": "high"})).get("error.code"); code != float64(CodeInvalidParams) {
		t.Errorf("a level the model lacks: code %v", code)
	}
	golden(t, r, "mode-change")
}

func TestModelAndThinkingOptions(t *testing.T) {
	think := faux.Model
	think.ID, think.Name, think.Reasoning = "faux-think", "Faux thinking", true
	r := newRig(t, rigConfig{models: []core.Model{faux.Model, think}})
	sid := r.newSession()
	res := r.result("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "faux/faux-think"})
	opts := res["configOptions"].([]any)
	if got := opts[1].(map[string]any)["currentValue"]; got != "faux/faux-think" {
		t.Errorf("model = %v", got)
	}
	announced := false
	for _, l := range r.out.all() {
		if l.get("params.update.sessionUpdate") == "config_option_update" && strings.Contains(l.text, `"currentValue":"faux/faux-think"`) {
			announced = true
		}
	}
	if !announced {
		t.Errorf("the model change was not announced with config_option_update:\n%s", r.out.dump(0))
	}
	r.result("session/set_config_option", map[string]any{"sessionId": sid, "configId": "thought_level", "value": "high"})
	if got := r.sess.State().Thinking; got != core.ThinkingHigh {
		t.Errorf("thinking = %s", got)
	}
	if code := r.response(r.call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "nope/nope"})).get("error.code"); code != float64(CodeInvalidParams) {
		t.Errorf("unknown model: code %v", code)
	}
}

func TestPromptContent(t *testing.T) {
	r := newRig(t, rigConfig{responses: []faux.Response{{Text: "ok"}}})
	sid := r.newSession()
	id := r.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{
		map[string]any{"type": "text", "text": "look at"},
		map[string]any{"type": "resource_link", "uri": "file:///x/y.go", "name": "y.go"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///x/z.go", "text": "package z"}},
		map[string]any{"type": "image", "data": "aGk=", "mimeType": "image/png"},
	}})
	r.response(id)
	msgs := r.sess.Messages()
	u, ok := msgs[0].(*core.UserMessage)
	if !ok {
		t.Fatalf("first message %T", msgs[0])
	}
	text := u.Text()
	for _, want := range []string{"look at", "[y.go](file:///x/y.go)", "package z", "file:///x/z.go"} {
		if !strings.Contains(text, want) {
			t.Errorf("prompt text %q lacks %q", text, want)
		}
	}
	images := 0
	for _, c := range u.Content {
		if c.Type == core.ContentImage {
			images++
		}
	}
	if images != 1 {
		t.Errorf("%d images, want 1", images)
	}
}

// A permission request left unanswered past the gate's timeout is
// withdrawn with $/cancel_request; the call is denied and the turn ends.
func TestPermissionTimeoutWithdrawsRequest(t *testing.T) {
	r := newRig(t, rigConfig{timeout: 50 * time.Millisecond, responses: []faux.Response{editCall("call_1", "a.txt", "one", "two"), {Text: "gave up"}}})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	sid := r.newSession()
	id := r.prompt(sid, "edit")
	perm := r.request("session/request_permission")
	withdrawn := r.wait("$/cancel_request", func(l *line) bool { return l.get("method") == "$/cancel_request" })
	if withdrawn.get("params.requestId") != perm.get("id") {
		t.Errorf("withdrew %v, asked %v", withdrawn.get("params.requestId"), perm.get("id"))
	}
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	// A late answer is ignored.
	r.answer(perm, selected("allow_once"))
	if got := readFile(t, filepath.Join(r.cwd, "a.txt")); got != "one\n" {
		t.Errorf("file = %q", got)
	}
}

// $/cancel_request naming the running prompt cancels its turn.
func TestCancelRequestCancelsPrompt(t *testing.T) {
	r, _, id, _ := editFlow(t, editCall("call_1", "a.txt", "one", "two"))
	r.notify("$/cancel_request", map[string]any{"requestId": id + 1000})
	// Once the next request is answered, the first notification has been
	// handled: the turn still waits for its permission.
	r.result("initialize", map[string]any{"protocolVersion": 1})
	if open := r.sess.OpenQuestions(); len(open) != 1 {
		t.Fatalf("a $/cancel_request for another id ended the turn: %d open questions", len(open))
	}
	r.notify("$/cancel_request", map[string]any{"requestId": id})
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "failed"})
	if got := r.response(id).str("result.stopReason"); got != "cancelled" {
		t.Errorf("stopReason = %q", got)
	}
}

// Each way a model answer ends maps to its stop reason; a failed request
// is a JSON-RPC error carrying the provider's message.
func TestStopReasons(t *testing.T) {
	cases := []struct {
		name     string
		response faux.Response
		reason   string
		errText  string
	}{
		{"finished", faux.Response{Text: "ok"}, "end_turn", ""},
		{"output limit", faux.Response{Text: "cut", StopReason: core.StopLength}, "max_tokens", ""},
		{"failed", faux.Response{Text: "half", Error: "the provider is down"}, "", "the provider is down"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, rigConfig{responses: []faux.Response{c.response}})
			sid := r.newSession()
			l := r.response(r.prompt(sid, "go"))
			if got := l.str("result.stopReason"); got != c.reason {
				t.Errorf("stopReason = %q, want %q: %s", got, c.reason, l.text)
			}
			if c.errText != "" && (l.get("error.code") != float64(CodeInternalError) || !strings.Contains(l.str("error.message"), c.errText)) {
				t.Errorf("error = %v, want %d with %q", l.get("error"), CodeInternalError, c.errText)
			}
		})
	}
}

// session/list names the stored sessions; session/resume switches to one
// without replaying it.
func TestListAndResume(t *testing.T) {
	r := newRig(t, rigConfig{files: true, responses: []faux.Response{{Text: "one"}, {Text: "two"}}})
	first := r.newSession()
	r.response(r.prompt(first, "the first question"))
	second := r.newSession()
	r.response(r.prompt(second, "the second question"))

	res := r.result("session/list", map[string]any{"cwd": r.cwd})
	titles := map[string]string{}
	for _, s := range res["sessions"].([]any) {
		s := s.(map[string]any)
		titles[s["sessionId"].(string)] = s["title"].(string)
		if s["cwd"] != r.cwd || s["updatedAt"] == "" {
			t.Errorf("session info %v", s)
		}
	}
	if titles[first] != "the first question" || titles[second] != "the second question" {
		t.Errorf("titles = %v", titles)
	}
	if res := r.result("session/list", map[string]any{"cwd": "/elsewhere"}); len(res["sessions"].([]any)) != 0 {
		t.Errorf("sessions of another directory: %v", res)
	}

	from := r.cursor
	r.result("session/resume", map[string]any{"sessionId": first, "cwd": r.cwd})
	for _, l := range r.out.all()[from:] {
		if k := l.str("params.update.sessionUpdate"); k == "user_message_chunk" || k == "agent_message_chunk" {
			t.Errorf("resume replayed history: %s", l.text)
		}
	}
	r.faux.Push(faux.Response{Text: "three"})
	r.response(r.prompt(first, "more"))
	if msgs := r.sess.Messages(); len(msgs) != 4 {
		t.Errorf("the resumed session holds %d messages, want 4", len(msgs))
	}
	caps := r.result("initialize", map[string]any{"protocolVersion": 1})["agentCapabilities"].(map[string]any)["sessionCapabilities"].(map[string]any)
	if caps["list"] == nil || caps["resume"] == nil {
		t.Errorf("sessionCapabilities = %v", caps)
	}
}
