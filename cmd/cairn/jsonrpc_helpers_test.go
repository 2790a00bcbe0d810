package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds every wait of the jsonrpc tests.
const waitLimit = 20 * time.Second

// rpcServer is cairn --mode jsonrpc running in-process.
type rpcServer struct {
	path   string
	stop   context.CancelFunc
	done   chan int
	stderr *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startJSONRPC runs cairn with --mode jsonrpc on a socket in a temporary
// directory and waits for it to say it listens. The server is stopped at
// the end of the test (stopJSONRPC stops it earlier).
func startJSONRPC(t testing.TB, vars map[string]string, args ...string) *rpcServer {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	if _, ok := vars["CAIRN_DIR"]; !ok {
		vars["CAIRN_DIR"] = t.TempDir()
	}
	path := filepath.Join(t.TempDir(), "cairn.sock")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &rpcServer{path: path, stop: cancel, done: make(chan int, 1), stderr: &lockedBuffer{}}
	streams := IOStreams{In: strings.NewReader(""), Out: failWriter{t}, Err: pw}
	all := append([]string{"--mode", "jsonrpc", "--socket", path}, args...)
	go func() {
		code := run(ctx, all, streams, func(k string) string { return vars[k] })
		_ = pw.Close()
		s.done <- code
	}()
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		said := false
		for sc.Scan() {
			s.stderr.Write(append(sc.Bytes(), '\n'))
			if !said && strings.Contains(sc.Text(), "listening on "+path) {
				said = true
				close(listening)
			}
		}
		if !said {
			close(listening)
		}
	}()
	select {
	case <-listening:
	case <-time.After(waitLimit):
		t.Fatalf("cairn did not start listening; stderr:\n%s", s.stderr.String())
	}
	t.Cleanup(func() { s.shutdown(t) })
	return s
}

// shutdown stops the server as SIGTERM does and returns its exit code.
func (s *rpcServer) shutdown(t testing.TB) int {
	t.Helper()
	s.stop()
	select {
	case code := <-s.done:
		s.done <- code
		return code
	case <-time.After(waitLimit):
		t.Fatalf("cairn did not stop; stderr:\n%s", s.stderr.String())
		return -1
	}
}

// failWriter fails the test on any write: stdout must stay empty.
type failWriter struct{ t testing.TB }

func (f failWriter) Write(p []byte) (int, error) {
	f.t.Errorf("cairn wrote to stdout in jsonrpc mode: %q", p)
	return len(p), nil
}

// rpcClient is one client of the socket.
type rpcClient struct {
	t      testing.TB
	conn   net.Conn
	msgs   chan map[string]any
	nextID int
}

func dialJSONRPC(t testing.TB, path string) *rpcClient {
	t.Helper()
	conn, err := net.DialTimeout("unix", path, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	c := &rpcClient{t: t, conn: conn, msgs: make(chan map[string]any, 1024)}
	go func() {
		defer close(c.msgs)
		sc := bufio.NewScanner(conn)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("not JSON from cairn: %q", sc.Text())
				return
			}
			if m["jsonrpc"] != "2.0" {
				t.Errorf("not JSON-RPC 2.0: %q", sc.Text())
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { _ = conn.Close() })
	return c
}

// sendRaw writes one line as it is.
func (c *rpcClient) sendRaw(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// send writes a request and returns its id.
func (c *rpcClient) send(method string, params any) int {
	c.t.Helper()
	c.nextID++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(b))
	return c.nextID
}

// next returns the next message, failing the test after waitLimit.
func (c *rpcClient) next() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("cairn closed the connection")
		}
		return m
	case <-time.After(waitLimit):
		c.t.Fatal("no message from cairn in time")
	}
	return nil
}

// until returns the messages up to and including the first that matches.
func (c *rpcClient) until(match func(map[string]any) bool) []map[string]any {
	c.t.Helper()
	var seen []map[string]any
	for {
		m := c.next()
		seen = append(seen, m)
		if match(m) {
			return seen
		}
	}
}

// call sends a request and returns its response, with the notifications
// that came before it.
func (c *rpcClient) call(method string, params any) (map[string]any, []map[string]any) {
	c.t.Helper()
	id := c.send(method, params)
	seen := c.until(isResponse(id))
	return seen[len(seen)-1], seen[:len(seen)-1]
}

// untilAfter is until for messages that may already be among seen (the
// notifications a call returned with its response): none more are read
// when one of seen matches.
func (c *rpcClient) untilAfter(seen []map[string]any, match func(map[string]any) bool) []map[string]any {
	c.t.Helper()
	if slices.ContainsFunc(seen, match) {
		return nil
	}
	return c.until(match)
}

func isResponse(id int) func(map[string]any) bool {
	return func(m map[string]any) bool {
		f, ok := m["id"].(float64)
		return ok && int(f) == id && m["method"] == nil
	}
}

func isMethod(method string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["method"] == method }
}

func (c *rpcClient) initialize() map[string]any {
	c.t.Helper()
	resp, _ := c.call("initialize", map[string]any{"protocol_version": "1.0.0", "client_info": map[string]string{"name": "test"}})
	return rpcResult(c.t, resp)
}

// rpcResult returns a response's result, failing on an error response.
func rpcResult(t testing.TB, resp map[string]any) map[string]any {
	t.Helper()
	r, ok := resp["result"].(map[string]any)
	if !ok {
		t.Fatalf("not a result: %v", resp)
	}
	return r
}

// errorCode returns an error response's code.
func errorCode(t testing.TB, resp map[string]any) int {
	t.Helper()
	e, ok := resp["error"].(map[string]any)
	if !ok {
		t.Fatalf("not an error: %v", resp)
	}
	return int(e["code"].(float64))
}

func params(m map[string]any) map[string]any {
	p, _ := m["params"].(map[string]any)
	return p
}

// methods lists the methods of the notifications among msgs.
func methods(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if s, ok := m["method"].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// streamedText joins the stream.token texts among msgs.
func streamedText(msgs []map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		if m["method"] == "stream.token" {
			b.WriteString(params(m)["token"].(string))
		}
	}
	return b.String()
}

// TestJSONRPCLaterClientsCheckTrustAgain: a .mcp.json that arrives while
// cairn listens (a git pull) makes the project untrusted for the next
// client, whose session then starts none of its servers.
func TestJSONRPCLaterClientsCheckTrustAgain(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	t.Chdir(project)
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": []}`)}
	env := newEnvironment(func(k string) string { return vars[k] })
	var stderr syncWriter
	opts, err := parseArgs([]string{"--provider", "faux", "--mode", "jsonrpc"})
	if err != nil {
		t.Fatal(err)
	}
	newAgent, closeFirst, err := agentFactory(IOStreams{Err: &stderr}, env, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFirst()
	first, err := newAgent()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	writeMCPConfig(t, filepath.Join(project, ".mcp.json"), map[string]any{"evil": map[string]any{"command": "/bin/sh", "args": []string{"-c", "exit 0"}}})
	second, err := newAgent()
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if !strings.Contains(stderr.String(), "not trusted") {
		t.Errorf("the second client's session took the new .mcp.json without trust; stderr:\n%s", stderr.String())
	}
	for _, tool := range second.Session.Tools() {
		if strings.HasPrefix(tool.Spec().Name, "mcp__evil") {
			t.Errorf("the untrusted server's tool %s is offered", tool.Spec().Name)
		}
	}
}
