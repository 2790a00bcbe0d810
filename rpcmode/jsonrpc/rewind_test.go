//go:build unix

package jsonrpc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
)

// client is a test's connection: it sends requests and reads messages.
type client struct {
	t    *testing.T
	c    net.Conn
	r    *bufio.Reader
	next int
}

// call sends a request and returns its response and the notifications
// read before it.
func (cl *client) call(method string, params any) (map[string]any, []map[string]any) {
	cl.t.Helper()
	cl.next++
	id := cl.next
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := cl.c.Write(append(b, '\n')); err != nil {
		cl.t.Fatal(err)
	}
	var before []map[string]any
	for {
		m := exchange(cl.t, cl.c, cl.r, "")
		if m == nil {
			cl.t.Fatalf("%s: the connection ended", method)
		}
		if m["id"] == float64(id) {
			return m, before
		}
		before = append(before, m)
	}
}

func bashCall(id, command string) faux.Response {
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash", Arguments: json.RawMessage(fmt.Sprintf(`{"command":%q}`, command))}}}
}

// completions lists the stream.complete notifications as "id:status".
func completions(ms []map[string]any) string {
	var out []string
	for _, m := range ms {
		if m["method"] == "stream.complete" {
			p := m["params"].(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v", p["query_id"], p["status"]))
		}
	}
	return strings.Join(out, " ")
}

// TestRewindMethod: `rm -rf src` through bash; then, while the next query
// runs a command and another waits behind it, cairn.rewind{steps:2}
// cancels both (their stream.complete come first), brings src back and
// says what it restored; a redo removes src again; bad params are refused.
func TestRewindMethod(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := serveOn(t, Config{NewAgent: func() (*Agent, error) {
		store, err := checkpoint.Open(checkpoint.Options{Project: dir, Dir: t.TempDir()})
		if err != nil {
			return nil, err
		}
		fp := faux.New(faux.Options{}, bashCall("c1", "rm -rf src"), faux.Response{Text: "removed"},
			bashCall("c2", "sleep 60"), faux.Response{Text: "never asked"})
		sess, err := agent.New(agent.Config{Model: faux.Model, Tools: tools.New(dir), Checkpoints: store,
			Open: func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil }})
		if err != nil {
			return nil, err
		}
		return &Agent{Session: sess, Dir: dir}, nil
	}})
	nc, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cl := &client{t: t, c: nc, r: bufio.NewReader(nc)}
	if init, _ := cl.call("initialize", map[string]any{}); !strings.Contains(fmt.Sprint(init["result"].(map[string]any)["capabilities"]), "rewind") {
		t.Fatalf("initialize: %v", init)
	}
	cl.call("agent.query", map[string]any{"message": "delete src"})
	for {
		m := exchange(t, nc, cl.r, "")
		if m == nil || completions([]map[string]any{m}) != "" {
			if got := completions([]map[string]any{m}); got != "q-1:success" {
				t.Fatalf("first query: %v", m)
			}
			break
		}
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}
	pv, _ := cl.call("cairn.rewind", map[string]any{"preview": true})
	if r, _ := pv["result"].(map[string]any); r == nil || r["preview"] != true || r["text"] != "delete src" ||
		fmt.Sprint(r["changes"]) != "[map[action:create path:src] map[action:create path:src/main.go]]" {
		t.Fatalf("preview: %v", pv)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatal("the preview changed the files")
	}

	for params, want := range map[string]string{
		`{"step":1}`:           "unknown field step",
		`{"restore":"files"}`:  `field "restore" must be`,
		`[1]`:                  "must be a JSON object",
		`{"steps":3}`:          "cannot go 3 prompts back: this branch has 1",
		`{"redo":true}`:        "there is no rewind to undo",
		`{"preview":1}`:        `field "preview" must be true or false`,
		`{"steps":1,"x":null}`: "unknown field x",
	} {
		resp, _ := cl.call("cairn.rewind", json.RawMessage(params))
		e, _ := resp["error"].(map[string]any)
		if e == nil || !strings.Contains(fmt.Sprint(e["data"]), want) {
			t.Errorf("%s: %v, want an error saying %q", params, resp, want)
		}
	}

	cl.call("agent.query", map[string]any{"message": "wait"})
	if q, _ := cl.call("agent.query", map[string]any{"message": "queued"}); q["result"].(map[string]any)["status"] != "queued" {
		t.Fatalf("second query: %v", q)
	}
	resp, before := cl.call("cairn.rewind", map[string]any{"steps": 2})
	if got := completions(before); got != "q-3:cancelled q-2:cancelled" {
		t.Fatalf("queries ended by the rewind: %q (%v)", got, before)
	}
	res, _ := resp["result"].(map[string]any)
	if res["restored"] != "both" || res["text"] != "delete src" || res["undo_checkpoint"] == "" ||
		fmt.Sprint(res["files"]) != "[src src/main.go]" || fmt.Sprint(res["not_restored"]) != "[]" ||
		fmt.Sprint(res["rewind"]) != "map[can_redo:true enabled:true points:0]" {
		t.Fatalf("rewind: %v", resp)
	}
	if b, err := os.ReadFile(filepath.Join(src, "main.go")); err != nil || string(b) != "package main\n" {
		t.Fatalf("src/main.go after rewind: %q, %v", b, err)
	}
	if resp, _ := cl.call("cairn.rewind", map[string]any{"redo": true}); resp["result"] == nil {
		t.Fatalf("redo: %v", resp)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
}
