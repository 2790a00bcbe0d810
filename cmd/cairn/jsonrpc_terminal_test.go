package main

import (
	"strings"
	"testing"
	"time"
)

// These tests read cairn's jsonrpc messages as OpenAgent-Terminal's shipped
// client does (src/main.rs, src/session.rs): the field names its Python
// backend (bridge.py) sends, beside the documented ones.

func TestJSONRPCTerminalReadsTokensAndBlocks(t *testing.T) {
	srv, _ := fauxServer(t, `{"chunkSize": 8, "responses": [{"text": "Run:\n`+"```sh\\nmake test\\n```"+`\nDone."}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "how do I test?"})
	msgs := c.until(isMethod("stream.complete"))
	var text strings.Builder
	var block map[string]any
	for _, m := range msgs {
		p := params(m)
		switch m["method"] {
		case "stream.token":
			if p["type"] != "text" {
				t.Fatalf("stream.token type = %v", p["type"])
			}
			text.WriteString(p["content"].(string))
		case "stream.block":
			block = p
		}
	}
	if text.String() != "Run:\n```sh\nmake test\n```\nDone." {
		t.Fatalf("content of the tokens = %q", text.String())
	}
	if block == nil || block["type"] != "code" || block["content"] != "make test" || block["language"] != "sh" {
		t.Fatalf("stream.block = %v", block)
	}
}

func TestJSONRPCTerminalReadsApprovalRequests(t *testing.T) {
	srv, _ := fauxServer(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "b1", "name": "bash", "arguments": {"command": "ls -la"}}]},
	  {"text": "Listed."}
	]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "list"})
	msgs := c.until(isMethod("tool.request_approval"))
	p := params(msgs[len(msgs)-1])
	if p["tool_name"] != "bash" || p["risk_level"] != "high" || p["preview"] != "ls -la" || !strings.Contains(p["description"].(string), "ls -la") {
		t.Fatalf("tool.request_approval as the terminal reads it: tool_name %v, risk_level %v, preview %v, description %v", p["tool_name"], p["risk_level"], p["preview"], p["description"])
	}
	if d, _ := p["preview_detail"].(map[string]any); d["type"] != "command" || d["content"] != "ls -la" {
		t.Fatalf("preview_detail = %v", p["preview_detail"])
	}
	resp, _ := c.call("tool.approve", map[string]any{"execution_id": p["execution_id"], "approved": true})
	rpcResult(t, resp)
	if done := c.until(isMethod("stream.complete")); params(done[len(done)-1])["status"] != "success" {
		t.Fatalf("after approval: %v", methods(done))
	}
}

// The terminal sends its next query while the last still streams (its
// ctrl+c stops reading and sends no agent.cancel): the query waits its
// turn instead of being refused.
func TestJSONRPCSecondQueryWaitsItsTurn(t *testing.T) {
	long := strings.Repeat("slow words ", 40)
	srv, _ := fauxServer(t, `{"chunkSize": 4, "tokensPerSecond": 40, "responses": [{"text": "`+long+`"}, {"text": "second answer"}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	resp, _ := c.call("agent.query", map[string]any{"message": "talk"})
	first := rpcResult(t, resp)["query_id"]
	c.until(isMethod("stream.token"))
	resp, _ = c.call("agent.query", map[string]any{"message": "next"})
	r := rpcResult(t, resp)
	second := r["query_id"]
	if r["status"] != "queued" || second == first {
		t.Fatalf("second query = %v", r)
	}
	msgs := c.until(isMethod("stream.complete"))
	if p := params(msgs[len(msgs)-1]); p["query_id"] != first || p["status"] != "success" {
		t.Fatalf("first stream.complete = %v", p)
	}
	msgs = c.until(isMethod("stream.complete"))
	if p := params(msgs[len(msgs)-1]); p["query_id"] != second || p["status"] != "success" || streamedText(msgs) != "second answer" {
		t.Fatalf("second query: %v, text %q", p, streamedText(msgs))
	}
}

func TestJSONRPCTerminalSessionCommands(t *testing.T) {
	srv, _ := fauxServer(t, `{"responses": [{"text": "Noted the walrus."}, {"text": "Noted the heron."}]}`)
	a := dialJSONRPC(t, srv.path)
	walrus := a.initialize()["session_id"].(string)
	a.call("agent.query", map[string]any{"message": "remember the walrus"})
	a.until(isMethod("stream.complete"))
	b := dialJSONRPC(t, srv.path)
	heron := b.initialize()["session_id"].(string)
	b.call("agent.query", map[string]any{"message": "remember the heron"})
	b.until(isMethod("stream.complete"))

	resp, _ := b.call("session.list", map[string]any{"limit": 10})
	sessions, _ := rpcResult(t, resp)["sessions"].([]any)
	if len(sessions) != 2 {
		t.Fatalf("session.list = %v", resp)
	}
	for _, s := range sessions {
		s := s.(map[string]any)
		for _, k := range []string{"created_at", "updated_at"} {
			if _, err := time.Parse(time.RFC3339, s[k].(string)); err != nil {
				t.Fatalf("%s %v: %v", k, s[k], err)
			}
		}
		if s["session_id"] != walrus && s["session_id"] != heron || s["title"] == "" || s["message_count"].(float64) < 2 || s["total_tokens"] == nil {
			t.Fatalf("session = %v", s)
		}
	}

	resp, _ = b.call("session.export", map[string]any{"session_id": walrus, "format": "markdown"})
	if content, _ := rpcResult(t, resp)["content"].(string); !strings.Contains(content, "remember the walrus") || !strings.Contains(content, "Noted the walrus.") {
		t.Fatalf("session.export = %v", resp)
	}
	resp, _ = b.call("session.delete", map[string]any{"session_id": heron})
	if errorCode(t, resp) != -32000 {
		t.Fatalf("deleting the open session: %v", resp)
	}

	resp, _ = b.call("session.load", map[string]any{"session_id": walrus})
	r := rpcResult(t, resp)
	msgs, _ := r["messages"].([]any)
	if r["session_id"] != walrus || len(msgs) != 2 {
		t.Fatalf("session.load = %v", r)
	}
	for i, want := range []struct{ role, content string }{{"user", "remember the walrus"}, {"assistant", "Noted the walrus."}} {
		m := msgs[i].(map[string]any)
		if _, err := time.Parse(time.RFC3339, m["timestamp"].(string)); err != nil || m["role"] != want.role || !strings.HasPrefix(m["content"].(string), want.content) {
			t.Fatalf("message %d = %v (%v)", i, m, err)
		}
	}
	resp, _ = b.call("session.delete", map[string]any{"session_id": heron})
	if rpcResult(t, resp)["deleted"] != heron {
		t.Fatalf("session.delete = %v", resp)
	}
	resp, _ = b.call("session.list", map[string]any{})
	if sessions, _ := rpcResult(t, resp)["sessions"].([]any); len(sessions) != 1 {
		t.Fatalf("after delete: %v", resp)
	}
}
