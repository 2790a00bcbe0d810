package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

const waitLimit = 20 * time.Second

// fauxAgent is an agent session answered by the faux provider; closed is
// closed when the adapter closes it.
func fauxAgent(t *testing.T, opts faux.Options, closed chan struct{}, responses ...faux.Response) *Agent {
	t.Helper()
	fp := faux.New(opts, responses...)
	sess, err := agent.New(agent.Config{
		Model: faux.Model,
		Open:  func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Agent{Session: sess, Close: func() {
		sess.Close()
		if closed != nil {
			close(closed)
		}
	}}
}

// serveOn runs Serve on a fresh socket until the test ends.
func serveOn(t *testing.T, cfg Config) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.sock")
	sock, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, sock, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(waitLimit):
			t.Error("Serve did not return")
		}
		_ = sock.Close()
	})
	return path
}

// exchange sends line (if any) and reads one message back, or reports the
// connection's end as nil.
func exchange(t *testing.T, c net.Conn, r *bufio.Reader, line string) map[string]any {
	t.Helper()
	if line != "" {
		if _, err := c.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	got, err := r.ReadBytes('\n')
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("%q: %v", got, err)
	}
	return m
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

func TestServeTurnsAwayClientsOverTheCap(t *testing.T) {
	path := serveOn(t, Config{MaxClients: 1, NewAgent: func() (*Agent, error) { return fauxAgent(t, faux.Options{}, nil), nil }})
	first, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	r1 := bufio.NewReader(first)
	if m := exchange(t, first, r1, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`); m["result"] == nil {
		t.Fatalf("first client: %v", m)
	}
	second, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	r2 := bufio.NewReader(second)
	if m := exchange(t, second, r2, ""); errCode(m) != CodePermissionDenied {
		t.Fatalf("second client: %v", m)
	}
	if m := exchange(t, second, r2, ""); m != nil {
		t.Fatalf("second client still connected: %v", m)
	}
}

func TestServeReportsASessionThatCannotStart(t *testing.T) {
	path := serveOn(t, Config{NewAgent: func() (*Agent, error) { return nil, errors.New("no model configured") }})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	m := exchange(t, c, r, "")
	if errCode(m) != CodeInternalError || !strings.Contains(m["error"].(map[string]any)["data"].(string), "no model configured") {
		t.Fatalf("got %v", m)
	}
	if m := exchange(t, c, r, ""); m != nil {
		t.Fatalf("still connected: %v", m)
	}
}

// A client that stops reading is dropped once a write has waited
// WriteTimeout, and its session is closed.
func TestServeDropsAClientThatStopsReading(t *testing.T) {
	closed := make(chan struct{})
	path := serveOn(t, Config{WriteTimeout: 200 * time.Millisecond, NewAgent: func() (*Agent, error) {
		return fauxAgent(t, faux.Options{ChunkSize: 8}, closed, faux.Response{Text: strings.Repeat("many words ", 400_000)}), nil
	}})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	exchange(t, c, r, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	if _, err := c.Write([]byte(`{"jsonrpc":"2.0","id":2,"method":"agent.query","params":{"message":"talk"}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatal("the session of a client that stopped reading was not closed")
	}
}

// Closing the connection mid-query cancels the query and closes the
// session.
func TestDisconnectCancelsTheQueryAndClosesTheSession(t *testing.T) {
	closed := make(chan struct{})
	path := serveOn(t, Config{NewAgent: func() (*Agent, error) {
		return fauxAgent(t, faux.Options{ChunkSize: 2, TokensPerSecond: 2}, closed, faux.Response{Text: strings.Repeat("slow ", 100)}), nil
	}})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	exchange(t, c, r, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	exchange(t, c, r, `{"jsonrpc":"2.0","id":2,"method":"agent.query","params":{"message":"talk"}}`)
	if m := exchange(t, c, r, ""); m["method"] != "stream.token" {
		t.Fatalf("got %v", m)
	}
	_ = c.Close()
	select {
	case <-closed:
	case <-time.After(5 * time.Second): // the answer alone would take 2 minutes
		t.Fatal("the session was not closed when its client left")
	}
}
