package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fauxServer starts cairn --mode jsonrpc with the faux provider playing
// script, in a temporary project directory.
func fauxServer(t *testing.T, script string, args ...string) (*rpcServer, string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	vars := map[string]string{"CAIRN_FAUX_SCRIPT": writeScript(t, script)}
	return startJSONRPC(t, vars, append([]string{"--provider", "faux"}, args...)...), dir
}

func TestJSONRPCInitializeAndQueryStream(t *testing.T) {
	srv, _ := fauxServer(t, `{"chunkSize": 8, "responses": [
	  {"text": "Use this:\n`+"```go\\nfmt.Println(\\\"hi\\\")\\n```"+`\nThat is all."}
	]}`)
	c := dialJSONRPC(t, srv.path)
	r := c.initialize()
	if r["status"] != "ready" || r["protocol_version"] != "1.0.0" || r["session_id"] == "" {
		t.Fatalf("initialize = %v", r)
	}
	if info := r["server_info"].(map[string]any); info["name"] != "cairn" {
		t.Fatalf("server_info = %v", info)
	}
	models := r["models"].([]any)
	if len(models) == 0 || models[0].(map[string]any)["name"] != "faux/faux-1" || models[0].(map[string]any)["loaded"] != true {
		t.Fatalf("models = %v", models)
	}

	resp, before := c.call("agent.query", map[string]any{"message": "show me", "context": map[string]any{"cwd": "/somewhere", "env": map[string]string{"TOKEN": "secret"}}})
	if len(before) != 0 {
		t.Fatalf("notifications before the query's response: %v", before)
	}
	q := rpcResult(t, resp)
	if q["status"] != "processing" || q["query_id"] == "" {
		t.Fatalf("agent.query = %v", q)
	}
	msgs := c.until(isMethod("stream.complete"))
	want := "Use this:\n```go\nfmt.Println(\"hi\")\n```\nThat is all."
	if got := streamedText(msgs); got != want {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
	index := 0
	var block map[string]any
	for _, m := range msgs {
		p := params(m)
		if p["query_id"] != q["query_id"] {
			t.Fatalf("notification of another query: %v", m)
		}
		switch m["method"] {
		case "stream.token":
			if int(p["index"].(float64)) != index {
				t.Fatalf("token index %v, want %d", p["index"], index)
			}
			index++
		case "stream.block":
			block = p["block"].(map[string]any)
		}
	}
	if block == nil || block["type"] != "code" || block["language"] != "go" || block["content"] != `fmt.Println("hi")` {
		t.Fatalf("stream.block = %v in %v", block, methods(msgs))
	}
	done := params(msgs[len(msgs)-1])
	if done["status"] != "success" {
		t.Fatalf("stream.complete = %v", done)
	}
	if meta := done["metadata"].(map[string]any); meta["model_used"] != "faux/faux-1" || meta["total_tokens"].(float64) <= 0 {
		t.Fatalf("metadata = %v", meta)
	}
}

func TestJSONRPCApprovalRoundTripWithDiff(t *testing.T) {
	srv, dir := fauxServer(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "e1", "name": "edit", "arguments": {"path": "notes.txt", "edits": [{"oldText": "milk", "newText": "bread"}]}}]},
	  {"text": "Edited."}
	]}`)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "fix the list"})
	msgs := c.until(isMethod("tool.request_approval"))
	req := params(msgs[len(msgs)-1])
	tool := req["tool"].(map[string]any)
	preview := req["preview_detail"].(map[string]any)
	if tool["name"] != "edit" || tool["category"] != "edit" || preview["type"] != "diff" || !strings.Contains(preview["content"].(string), "bread") {
		t.Fatalf("tool.request_approval = %v", req)
	}
	if risk := req["risk_assessment"].(map[string]any); risk["level"] != "medium" {
		t.Fatalf("risk = %v", risk)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "buy milk\n" {
		t.Fatal("the edit ran before it was approved")
	}
	exec := req["execution_id"].(string)
	resp, before := c.call("tool.approve", map[string]any{"execution_id": exec, "approved": true})
	if r := rpcResult(t, resp); r["status"] != "approved" || r["execution_id"] != exec || r["remembered"] != false {
		t.Fatalf("tool.approve = %v", r)
	}
	msgs = append(before, c.untilAfter(before, isMethod("stream.complete"))...)
	var complete, diff map[string]any
	for _, m := range msgs {
		p := params(m)
		switch {
		case m["method"] == "tool.complete":
			complete = p
		case m["method"] == "stream.block" && p["block"].(map[string]any)["type"] == "diff":
			diff = p["block"].(map[string]any)
		}
	}
	if complete == nil || complete["execution_id"] != exec || complete["status"] != "success" {
		t.Fatalf("tool.complete = %v in %v", complete, methods(msgs))
	}
	if files := complete["result"].(map[string]any)["files_modified"].([]any); len(files) != 1 || files[0] != "notes.txt" {
		t.Fatalf("files_modified = %v", files)
	}
	if diff == nil || !strings.Contains(diff["content"].(string), "+buy bread") {
		t.Fatalf("diff block = %v", diff)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "buy bread\n" {
		t.Fatalf("notes.txt = %q", data)
	}
	if p := params(msgs[len(msgs)-1]); p["status"] != "success" {
		t.Fatalf("stream.complete = %v", p)
	}
}

func TestJSONRPCDenialTellsTheModelAndTheTurnGoesOn(t *testing.T) {
	srv, dir := fauxServer(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "b1", "name": "bash", "arguments": {"command": "touch made-by-bash"}}]},
	  {"text": "Understood."}
	]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "make a file"})
	msgs := c.until(isMethod("tool.request_approval"))
	req := params(msgs[len(msgs)-1])
	if req["preview_detail"].(map[string]any)["content"] != "touch made-by-bash" || req["risk_assessment"].(map[string]any)["level"] != "high" {
		t.Fatalf("tool.request_approval = %v", req)
	}
	resp, before := c.call("tool.approve", map[string]any{"execution_id": req["execution_id"], "approved": false, "reason": "not here"})
	if r := rpcResult(t, resp); r["status"] != "rejected" {
		t.Fatalf("tool.approve = %v", r)
	}
	// The denial's notifications may come before the response to the
	// approval: both orders are the protocol's.
	msgs = append(before, c.untilAfter(before, isMethod("stream.complete"))...)
	var complete map[string]any
	for _, m := range msgs {
		if m["method"] == "tool.complete" {
			complete = params(m)
		}
	}
	if complete == nil || complete["status"] != "denied" || !strings.Contains(complete["result"].(map[string]any)["output"].(string), "not here") {
		t.Fatalf("tool.complete = %v", complete)
	}
	if streamedText(msgs) != "Understood." || params(msgs[len(msgs)-1])["status"] != "success" {
		t.Fatalf("after the denial: %v", methods(msgs))
	}
	if _, err := os.Stat(filepath.Join(dir, "made-by-bash")); err == nil {
		t.Fatal("a denied command ran")
	}
	// The question is closed now: answering again is refused.
	resp, _ = c.call("tool.approve", map[string]any{"execution_id": req["execution_id"], "approved": true})
	if errorCode(t, resp) != -32602 {
		t.Fatalf("second answer = %v", resp)
	}
}

func TestJSONRPCRememberChoiceSkipsTheNextRequest(t *testing.T) {
	call := `{"content": [{"type": "toolCall", "id": "b1", "name": "bash", "arguments": {"command": "echo remembered"}}]}`
	srv, _ := fauxServer(t, `{"responses": [`+call+`, {"text": "One."}, `+call+`, {"text": "Two."}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "first"})
	msgs := c.until(isMethod("tool.request_approval"))
	req := params(msgs[len(msgs)-1])
	if req["remember_available"] != true {
		t.Fatalf("remembering not offered: %v", req)
	}
	resp, before := c.call("tool.approve", map[string]any{"execution_id": req["execution_id"], "approved": true, "options": map[string]any{"remember_choice": true}})
	if r := rpcResult(t, resp); r["remembered"] != true {
		t.Fatalf("tool.approve = %v", r)
	}
	c.untilAfter(before, isMethod("stream.complete"))
	c.call("agent.query", map[string]any{"message": "second"})
	msgs = c.until(isMethod("stream.complete"))
	if slices.Contains(methods(msgs), "tool.request_approval") {
		t.Fatalf("asked again after remember_choice: %v", methods(msgs))
	}
	var complete, progress map[string]any
	for _, m := range msgs {
		switch m["method"] {
		case "tool.complete":
			complete = params(m)
		case "tool.progress":
			if complete == nil {
				progress = params(m)
			}
		}
	}
	if complete == nil || complete["status"] != "success" || !strings.Contains(complete["result"].(map[string]any)["output"].(string), "remembered") {
		t.Fatalf("tool.complete = %v", complete)
	}
	if progress == nil || progress["execution_id"] != complete["execution_id"] || progress["progress"].(map[string]any)["status"] != "running" {
		t.Fatalf("tool.progress = %v before %v", progress, complete)
	}
	if tools := params(msgs[len(msgs)-1])["metadata"].(map[string]any)["tools_executed"].([]any); len(tools) != 1 || tools[0] != "bash" {
		t.Fatalf("tools_executed = %v", tools)
	}
}

func TestJSONRPCCancel(t *testing.T) {
	long := strings.Repeat("slow words ", 60)
	srv, _ := fauxServer(t, `{"chunkSize": 4, "tokensPerSecond": 10, "responses": [{"text": "`+long+`"}, {"text": "after"}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	resp, _ := c.call("agent.query", map[string]any{"message": "talk"})
	id := rpcResult(t, resp)["query_id"]
	c.until(isMethod("stream.token"))
	// A second query waits its turn; cancelled before it starts, it ends
	// with its own stream.complete and never reaches the model.
	resp, _ = c.call("agent.query", map[string]any{"message": "and another"})
	waiting := rpcResult(t, resp)["query_id"]
	resp, before := c.call("agent.cancel", map[string]any{"query_id": waiting})
	if r := rpcResult(t, resp); r["cancelled"] != true || r["query_id"] != waiting {
		t.Fatalf("agent.cancel of the waiting query = %v", r)
	}
	if done := append(before, c.untilAfter(before, isMethod("stream.complete"))...); params(done[len(done)-1])["query_id"] != waiting || params(done[len(done)-1])["status"] != "cancelled" {
		t.Fatalf("the waiting query's stream.complete: %v", done[len(done)-1])
	}
	cancelID := c.send("agent.cancel", map[string]any{"query_id": id})
	msgs := c.until(isMethod("stream.complete"))
	var cancelResp map[string]any
	completes := 0
	for _, m := range msgs {
		if isResponse(cancelID)(m) {
			cancelResp = m
		}
		if m["method"] == "stream.complete" {
			completes++
		}
	}
	if cancelResp == nil {
		t.Fatalf("no response to agent.cancel before stream.complete: %v", msgs)
	}
	if r := rpcResult(t, cancelResp); r["cancelled"] != true || r["query_id"] != id {
		t.Fatalf("agent.cancel = %v", r)
	}
	if p := params(msgs[len(msgs)-1]); p["status"] != "cancelled" || p["query_id"] != id || completes != 1 {
		t.Fatalf("stream.complete = %v (%d)", p, completes)
	}
	if len(streamedText(msgs)) >= len(long) {
		t.Fatal("the whole answer streamed despite the cancel")
	}
	// The connection stays usable.
	c.call("agent.query", map[string]any{"message": "again"})
	msgs = c.until(isMethod("stream.complete"))
	if streamedText(msgs) != "after" || params(msgs[len(msgs)-1])["status"] != "success" {
		t.Fatalf("after cancel: %v", msgs)
	}
	resp, _ = c.call("agent.cancel", map[string]any{"query_id": id})
	if rpcResult(t, resp)["cancelled"] != false {
		t.Fatalf("cancelling a finished query = %v", resp)
	}
}

func TestJSONRPCBadInput(t *testing.T) {
	srv, _ := fauxServer(t, `{"responses": [{"text": "fine"}]}`)
	c := dialJSONRPC(t, srv.path)

	c.sendRaw(`{"jsonrpc":"2.0","id":1,"method":"agent.query","params":{"message":"early"}}`)
	if resp := c.next(); errorCode(t, resp) != -32600 || resp["id"].(float64) != 1 {
		t.Fatalf("before initialize: %v", resp)
	}
	c.initialize()
	cases := []struct {
		line string
		code int
		id   any
	}{
		{`this is not json`, -32700, nil},
		{`{"jsonrpc":"2.0","id":7,"method":`, -32700, nil},
		{`[{"jsonrpc":"2.0","id":8,"method":"initialize"}]`, -32600, nil},
		{`{"jsonrpc":"1.0","id":9,"method":"initialize"}`, -32600, 9.0},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":"ten","method":"agent.teleport"}`, -32601, "ten"},
		{`{"jsonrpc":"2.0","id":11,"method":"agent.query","params":{"message":5}}`, -32602, 11.0},
		{`{"jsonrpc":"2.0","id":12,"method":"agent.query","params":{"message":"  "}}`, -32602, 12.0},
		{`{"jsonrpc":"2.0","id":13,"method":"agent.query","params":"text"}`, -32600, 13.0},
		{`{"jsonrpc":"2.0","id":14,"method":"tool.approve","params":{"execution_id":"exec-99","approved":true}}`, -32602, 14.0},
		{`{"jsonrpc":"2.0","id":15,"method":"session.load","params":{"path":"relative.jsonl"}}`, -32602, 15.0},
		{`{"jsonrpc":"2.0","id":16,"method":"initialize","params":{"protocol_version":"2.0.0"}}`, -32602, 16.0},
	}
	for _, tc := range cases {
		c.sendRaw(tc.line)
		resp := c.next()
		if errorCode(t, resp) != tc.code || resp["id"] != tc.id {
			t.Errorf("%s: got %v, want code %d id %v", tc.line, resp, tc.code, tc.id)
		}
	}
	// Notifications get no response, not even an error.
	c.sendRaw(`{"jsonrpc":"2.0","method":"agent.teleport"}`)
	c.sendRaw(`{"jsonrpc":"2.0","method":"context.update","params":{"cwd":"/tmp"}}`)

	// A message over 10 MB is refused without closing the connection.
	big := `{"jsonrpc":"2.0","id":20,"method":"agent.query","params":{"message":"` + strings.Repeat("a", 10<<20) + `"}}`
	go func() { _, _ = c.conn.Write([]byte(big + "\n")) }()
	if resp := c.next(); errorCode(t, resp) != -32600 || resp["id"] != nil {
		t.Fatalf("oversized: %v", resp)
	}
	resp, _ := c.call("agent.query", map[string]any{"message": "still there?"})
	rpcResult(t, resp)
	msgs := c.until(isMethod("stream.complete"))
	if streamedText(msgs) != "fine" {
		t.Fatalf("after bad input: %v", msgs)
	}
	resp, _ = c.call("agent.query", map[string]any{"message": "x"})
	rpcResult(t, resp)
	c.until(isMethod("stream.complete"))
}

func TestJSONRPCSessionSaveAndLoad(t *testing.T) {
	srv, dir := fauxServer(t, `{"responses": [{"text": "I will remember the milk."}, {"text": "loaded"}]}`)
	a := dialJSONRPC(t, srv.path)
	a.initialize()
	resp, _ := a.call("session.save", map[string]any{})
	if errorCode(t, resp) != -32000 {
		t.Fatalf("saving an empty session: %v", resp)
	}
	a.call("agent.query", map[string]any{"message": "remember the milk"})
	a.until(isMethod("stream.complete"))
	saved := filepath.Join(dir, "saved", "s.jsonl")
	if err := os.Mkdir(filepath.Dir(saved), 0o755); err != nil {
		t.Fatal(err)
	}
	resp, _ = a.call("session.save", map[string]any{"path": saved, "include_history": true})
	r := rpcResult(t, resp)
	st, err := os.Stat(saved)
	if err != nil || r["saved"] != true || r["path"] != saved || int64(r["size"].(float64)) != st.Size() {
		t.Fatalf("session.save = %v (%v)", r, err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("saved file mode %v", st.Mode())
	}
	data, _ := os.ReadFile(saved)
	if !strings.Contains(string(data), "remember the milk") {
		t.Fatalf("saved file lacks the conversation:\n%s", data)
	}

	b := dialJSONRPC(t, srv.path)
	info := b.initialize()
	if info["session_id"] == a.initialize()["session_id"] {
		t.Fatal("two clients share one session")
	}
	resp, _ = b.call("session.load", map[string]any{"path": saved})
	r = rpcResult(t, resp)
	sess := r["session"].(map[string]any)
	if r["loaded"] != true || sess["messages_count"].(float64) < 2 {
		t.Fatalf("session.load = %v", r)
	}
	var head struct{ ID string }
	_ = json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &head)
	if sess["id"] != head.ID {
		t.Fatalf("loaded session id %v, file's %v", sess["id"], head.ID)
	}
	resp, _ = b.call("session.load", map[string]any{"path": filepath.Join(dir, "missing.jsonl")})
	if errorCode(t, resp) != -32602 {
		t.Fatalf("loading a missing file: %v", resp)
	}
}

func TestJSONRPCSocketIsPrivateAndRemovedOnExit(t *testing.T) {
	srv, _ := fauxServer(t, `{"chunkSize": 2, "tokensPerSecond": 5, "responses": [{"text": "`+strings.Repeat("x", 400)+`"}]}`)
	st, err := os.Lstat(srv.path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v", st.Mode())
	}
	// Stopping with a client mid-query ends its query and removes the
	// socket.
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "go on"})
	c.until(isMethod("stream.token"))
	if code := srv.shutdown(t); code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, srv.stderr.String())
	}
	if _, err := os.Lstat(srv.path); !os.IsNotExist(err) {
		t.Fatalf("socket still there after exit: %v", err)
	}
	for {
		select {
		case _, ok := <-c.msgs:
			if !ok {
				return
			}
		case <-time.After(waitLimit):
			t.Fatal("the client was not disconnected")
		}
	}
}

func TestJSONRPCRefusesToClobberAFile(t *testing.T) {
	t.Chdir(t.TempDir())
	path := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := ""
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": []}`)}, &empty, "--mode", "jsonrpc", "--socket", path, "--provider", "faux")
	if data, _ := os.ReadFile(path); r.code != exitFailure || string(data) != "keep me" || !strings.Contains(r.stderr, "not a socket") {
		t.Fatalf("%+v", r)
	}
}

func TestJSONRPCModelFailureEndsWithStreamError(t *testing.T) {
	srv, _ := fauxServer(t, `{"responses": [{"text": "partial", "error": "the model fell over"}, {"text": "recovered"}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	resp, _ := c.call("agent.query", map[string]any{"message": "try"})
	id := rpcResult(t, resp)["query_id"]
	msgs := c.until(isMethod("stream.complete"))
	var streamErr map[string]any
	for _, m := range msgs {
		if m["method"] == "stream.error" {
			streamErr = params(m)
		}
	}
	if streamErr == nil || streamErr["query_id"] != id {
		t.Fatalf("no stream.error: %v", methods(msgs))
	}
	if e := streamErr["error"].(map[string]any); e["code"].(float64) != -32001 || !strings.Contains(e["details"].(string), "fell over") {
		t.Fatalf("stream.error = %v", e)
	}
	if p := params(msgs[len(msgs)-1]); p["status"] != "error" {
		t.Fatalf("stream.complete = %v", p)
	}
	c.call("agent.query", map[string]any{"message": "again"})
	if msgs := c.until(isMethod("stream.complete")); streamedText(msgs) != "recovered" {
		t.Fatalf("after the failure: %v", msgs)
	}
}
