package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func TestServeRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--bogus"}, "unknown argument --bogus"},
		{[]string{"serve", "extra"}, "unknown argument extra"},
		{[]string{"serve", "--port", "x"}, "--port needs a port number"},
		{[]string{"serve", "--port"}, "--port needs a value"},
		{[]string{"serve", "--addr", "0.0.0.0"}, "needs TLS"},
		{[]string{"serve", "--addr=192.0.2.7"}, "--tls-cert"},
		{[]string{"serve", "--tls-cert", "c.pem"}, "both --tls-cert and --tls-key"},
		{[]string{"serve", "--tls-cert", "missing.pem", "--tls-key", "missing.key"}, "load the TLS certificate"},
	} {
		var out, errb strings.Builder
		code := run(context.Background(), tc.args, IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb}, func(string) string { return "" })
		if code != exitUsage || !strings.Contains(errb.String(), tc.want) || out.String() != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out.String(), errb.String(), exitUsage, tc.want)
		}
	}
}

// pageConn is a WebSocket to cairn serve, speaking ACP as the page does.
type pageConn struct {
	t  *testing.T
	c  *websocket.Conn
	id int
}

func dialServe(t *testing.T, page string) *pageConn {
	t.Helper()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + u.Host
	ws := "ws://" + u.Host + u.Path + "acp"
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	return &pageConn{t: t, c: c}
}

// call sends a request and reads frames until its answer, returning the
// frames before it.
func (p *pageConn) call(method string, params any) (result map[string]any, before []map[string]any) {
	p.t.Helper()
	p.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method, "params": params})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := p.c.Write(ctx, websocket.MessageText, b); err != nil {
		p.t.Fatal(err)
	}
	for {
		_, msg, err := p.c.Read(ctx)
		if err != nil {
			p.t.Fatalf("%s: %v", method, err)
		}
		var m map[string]any
		if err := json.Unmarshal(msg, &m); err != nil {
			p.t.Fatalf("not a frame: %q", msg)
		}
		if m["method"] == nil && m["id"] == float64(p.id) {
			if m["error"] != nil {
				p.t.Fatalf("%s: %v", method, m["error"])
			}
			r, _ := m["result"].(map[string]any)
			return r, before
		}
		before = append(before, m)
	}
}

// cairn serve prints its address once, and a page there drives the
// session serve started; another page, open beside it, lists the same live
// session and joins it, seeing what the first one said; interrupted, cairn
// exits 0.
func TestServeDrivesASession(t *testing.T) {
	dir, proj := t.TempDir(), t.TempDir()
	t.Chdir(proj)
	script := writeScript(t, `{"responses":[{"text":"Hello from the page's session."}]}`)
	vars := map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": script}
	outR, outW := io.Pipe()
	errb := &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--provider", "faux"}, IOStreams{In: strings.NewReader(""), Out: outW, Err: errb}, func(k string) string { return vars[k] })
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	if !lines.Scan() {
		t.Fatalf("cairn serve printed nothing; stderr: %s", errb.String())
	}
	page := lines.Text()
	u, err := url.Parse(page)
	if err != nil || u.Scheme != "http" || !strings.HasPrefix(u.Host, "127.0.0.1:") || len(strings.Trim(u.Path, "/")) < 40 || u.Query().Get("cwd") != proj {
		t.Fatalf("cairn serve printed %q: want http://127.0.0.1:PORT/TOKEN/?cwd=%s", page, proj)
	}

	p := dialServe(t, page)
	p.call("initialize", map[string]any{"protocolVersion": 1})
	res, _ := p.call("session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	sid, _ := res["sessionId"].(string)
	res, frames := p.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}})
	var text strings.Builder
	for _, f := range frames {
		params, _ := f["params"].(map[string]any)
		up, _ := params["update"].(map[string]any)
		if up["sessionUpdate"] == "agent_message_chunk" {
			c, _ := up["content"].(map[string]any)
			s, _ := c["text"].(string)
			text.WriteString(s)
		}
	}
	if res["stopReason"] != "end_turn" || text.String() != "Hello from the page's session." {
		t.Fatalf("prompt: %v, text %q; stderr: %s", res, text.String(), errb.String())
	}

	// Another page, open beside the first, lists the session it stored.
	q := dialServe(t, page)
	q.call("initialize", map[string]any{"protocolVersion": 1})
	list, _ := q.call("session/list", map[string]any{})
	if !strings.Contains(mustJSON(list), sid) {
		t.Fatalf("session/list %v lacks %s", list, sid)
	}
	_, replayed := q.call("session/load", map[string]any{"sessionId": sid, "cwd": proj, "mcpServers": []any{}})
	if !strings.Contains(mustJSON(replayed), "Hello from the page's session.") {
		t.Fatalf("the second page did not see the session's history: %v", replayed)
	}
	q.c.Close(websocket.StatusNormalClosure, "")
	p.c.Close(websocket.StatusNormalClosure, "")

	cancel()
	select {
	case c := <-code:
		if c != exitOK {
			t.Fatalf("exit %d; stderr: %s", c, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("cairn serve did not stop within 30s of its interruption")
	}
	if lines.Scan() {
		t.Fatalf("stdout has more than the address: %q", lines.Text())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// With CAIRN_ATTACH=off no socket is served, but the page still reaches
// the session serve started.
func TestServeWithoutAttachSocket(t *testing.T) {
	dir, proj, runDir := t.TempDir(), t.TempDir(), t.TempDir()
	t.Chdir(proj)
	vars := map[string]string{"CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses":[{"text":"still here"}]}`),
		"CAIRN_ATTACH": "off", "CAIRN_RUNTIME_DIR": runDir}
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--provider", "faux"}, IOStreams{In: strings.NewReader(""), Out: outW, Err: &lockedBuffer{}}, func(k string) string { return vars[k] })
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	if !lines.Scan() {
		t.Fatal("cairn serve printed nothing")
	}
	p := dialServe(t, lines.Text())
	p.call("initialize", map[string]any{"protocolVersion": 1})
	if list, _ := p.call("session/list", map[string]any{}); !strings.Contains(mustJSON(list), proj) {
		t.Fatalf("the page lists %v", list)
	}
	if entries, _ := os.ReadDir(runDir); len(entries) != 0 {
		t.Errorf("a socket was served with CAIRN_ATTACH=off: %v", entries)
	}
	p.c.Close(websocket.StatusNormalClosure, "")
	cancel()
	<-code
}
