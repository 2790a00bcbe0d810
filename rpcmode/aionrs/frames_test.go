package aionrs

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeCommand(t *testing.T) {
	ok := []struct {
		in   string
		want command
	}{
		{`{"type":"message","msg_id":"m1","input":"hi","files":["/a.png"],"extra":1}`, command{Type: cmdMessage, MsgID: "m1", Input: "hi", Files: []string{"/a.png"}}},
		{`{"type":"message","msg_id":"m1","content":"from aionrs"}`, command{Type: cmdMessage, MsgID: "m1", Input: "from aionrs"}},
		{`{"type":"tool_approve","call_id":"c"}`, command{Type: cmdToolApprove, CallID: "c", Scope: "once"}},
		{`{"type":"tool_approve","call_id":"c","scope":"always"}`, command{Type: cmdToolApprove, CallID: "c", Scope: "always"}},
		{`{"type":"tool_deny","call_id":"c","reason":"no"}`, command{Type: cmdToolDeny, CallID: "c", Reason: "no"}},
		{`{"type":"init_history","text":""}`, command{Type: cmdInitHistory}},
		{` {"type":"set_mode","mode":"yolo"} `, command{Type: cmdSetMode, Mode: "yolo"}},
		{`{"type":"stop"}`, command{Type: cmdStop}},
		{`{"type":"ping"}`, command{Type: cmdPing}},
	}
	for _, c := range ok {
		got, err := decodeCommand([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if g, w := mustJSON(t, got), mustJSON(t, c.want); g != w {
			t.Errorf("%s = %s, want %s", c.in, g, w)
		}
	}
	bad := map[string]string{
		`{"type":"foo"}`:                      "Unknown command type: foo",
		`{}`:                                  `"type" field is missing`,
		`"message"`:                           "one JSON object",
		`{"type":"message","msg_id":""}`:      `"msg_id" is required`,
		`{"type":"message","msg_id":5}`:       "Invalid command",
		`{"type":"tool_deny","call_id":null}`: `"call_id" is required`,
		`{"type":"set_mode"}`:                 `"mode" is required`,
		`{"type":"stop"} {"type":"stop"}`:     "Invalid command",
	}
	for in, want := range bad {
		_, err := decodeCommand([]byte(in))
		if err == nil || !strings.Contains(err.msg, want) {
			t.Errorf("%s: error %v, want one containing %q", in, err, want)
		}
	}
}

func mustJSON(t *testing.T, v command) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzDecodeCommand: any line decodes to a command or a protocol error,
// never a panic; a decoded command has a known type and its required
// fields.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","msg_id":"m1","input":"hi","files":["a"]}`,
		`{"type":"tool_approve","call_id":"c","scope":"always"}`,
		`{"type":"tool_deny","call_id":"c","reason":"r"}`,
		`{"type":"init_history","text":"t"}`, `{"type":"set_mode","mode":"yolo"}`,
		`{"type":"stop"}`, `{"type":"ping"}`, `{"type":"\u0000"}`, `{"type":"message","msg_id":"\ud800"}`,
		`[`, `{"type":`, "", "null", `{"type":"message","msg_id":"m","input":1e999}`,
		`{"type":"rewind","steps":2,"restore":"code"}`, `{"type":"rewind","redo":true,"msg_id":"m"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeCommand(data)
		if err != nil {
			if err.msg == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		switch c.Type {
		case cmdMessage:
			if c.MsgID == "" || (c.Input == "" && len(c.Files) == 0) {
				t.Fatalf("message without id or content: %+v", c)
			}
		case cmdToolApprove:
			if c.CallID == "" || (c.Scope != "once" && c.Scope != "always") {
				t.Fatalf("bad approve: %+v", c)
			}
		case cmdToolDeny:
			if c.CallID == "" {
				t.Fatalf("bad deny: %+v", c)
			}
		case cmdSetMode:
			if c.Mode == "" {
				t.Fatalf("bad set_mode: %+v", c)
			}
		case cmdRewind:
			if c.Rewind.Steps < 0 || (c.Rewind.Redo && c.Rewind.Preview) {
				t.Fatalf("bad rewind: %+v", c)
			}
		case cmdStop, cmdPing, cmdInitHistory, cmdSetConfig, cmdAddMCP:
		default:
			t.Fatalf("unknown type accepted: %q", c.Type)
		}
	})
}
