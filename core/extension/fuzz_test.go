package extension

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// answeringHost answers every dialog at once.
type answeringHost struct{}

func (answeringHost) Ask(context.Context, core.Question) (core.Answer, core.Outcome) {
	return core.Answer{Value: "x", Yes: true}, core.Answered
}
func (answeringHost) Show(core.Event)                      {}
func (answeringHost) SendUserMessage(string, string) error { return nil }

// FuzzDecode feeds arbitrary bytes to the protocol decoder as an
// extension's output (framing, JSON-RPC, then every method's params
// through serve) and checks it never panics and always ends.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ui","params":{"method":"select","title":"t","options":["a"]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ui","params":{"method":"setWidget","widgetKey":"k","widgetLines":["a"],"widgetPlacement":"belowEditor"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"register_tool","params":{"name":"t","description":"d","parameters":{"type":"object"}}}`,
		`{"jsonrpc":"2.0","method":"tool_update","params":{"toolCallId":"c","content":[{"type":"text","text":"x"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"set_active_tools","params":{"names":["t"]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"send_user_message","params":{"content":"hi","deliverAs":"steer"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"complete","params":{"provider":"p","id":"m","messages":[{"role":"user","content":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":7,"method":"set_thinking_level","params":{"level":"high"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"set_label","params":{"targetId":"e1","label":"x"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"send_message","params":{"customType":"t","content":[{"type":"text","text":"x"}],"display":true,"triggerTurn":false,"deliverAs":"nextTurn"}}`,
		`{"jsonrpc":"2.0","id":10,"method":"new_session","params":{"parentSession":"/s.jsonl"}}`,
		`{"jsonrpc":"2.0","id":11,"method":"get_commands","params":{}}`,
		`{"jsonrpc":"2.0","id":12,"method":"get_session","params":{}}`,
		`{"jsonrpc":"2.0","id":13,"method":"get_tools","params":{}}`,
		`{"jsonrpc":"2.0","id":14,"method":"set_tools","params":{"names":["read","nope"]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`,
		"not json\n\n[1,2]\n{\"jsonrpc\":\"1.0\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := New(nil, Options{Mode: "tui", UI: core.UIMethods, Now: func() time.Time { return time.Unix(0, 0) }})
		m.Attach(answeringHost{})
		e := &extension{m: m, cfg: Config{Name: "fuzz"}, state: Ready, updates: map[string]func(core.ToolUpdate){"c": func(core.ToolUpdate) {}},
			ops: map[*opCtx]struct{}{}, exited: make(chan struct{}), version: ProtocolVersion}
		var out bytes.Buffer
		c := newConn(nopCloser{&out}, func(msg jsonrpc2.Message) (any, *jsonrpc2.Error) { return e.serve(msg) })
		c.dispatchSync = true
		c.read(newGuard(bytes.NewReader(data), m.opts.Now))
		if c.readErr() == nil {
			t.Fatal("reading ended without a reason")
		}
	})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
