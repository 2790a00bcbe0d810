package jsonrpc2

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		line    string
		code    int
		kind    Kind
		id      string // the message's id, or the reply id of an error
		method  string
		params  string
		isError bool
	}{
		{line: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, kind: Request, id: "1", method: "initialize", params: "{}"},
		{line: `{"jsonrpc":"2.0","id":"a","method":"m","params":[1]}`, kind: Request, id: `"a"`, method: "m", params: "[1]"},
		{line: `{"jsonrpc":"2.0","id":null,"method":"m","params":null}`, kind: Request, id: "null", method: "m"},
		{line: `{"jsonrpc":"2.0","method":"n","params":{}}`, kind: Notification, method: "n", params: "{}"},
		{line: `{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`, kind: Response, id: "7"},
		{line: `{"jsonrpc":"2.0","id":8,"error":{"code":-1,"message":"no"}}`, kind: Response, id: "8", isError: true},
		{line: `nope`, code: ParseError},
		{line: `{"jsonrpc":"2.0",`, code: ParseError},
		{line: `[]`, code: InvalidRequest},
		{line: `"text"`, code: InvalidRequest},
		{line: `{"id":1,"method":"m"}`, code: InvalidRequest, id: "1"},
		{line: `{"jsonrpc":"2.0","id":true,"method":"m"}`, code: InvalidRequest},
		{line: `{"jsonrpc":"2.0","id":2,"method":""}`, code: InvalidRequest, id: "2"},
		{line: `{"jsonrpc":"2.0","id":3,"method":7}`, code: InvalidRequest, id: "3"},
		{line: `{"jsonrpc":"2.0","id":4,"method":"m","params":5}`, code: InvalidRequest, id: "4"},
		{line: `{"jsonrpc":"2.0","id":5,"METHOD":"m"}`, code: InvalidRequest, id: "5"},
		{line: `{"jsonrpc":"2.0"}`, code: InvalidRequest},
	}
	for _, tc := range cases {
		m, replyID, err := Decode([]byte(tc.line))
		if tc.code != 0 {
			if err == nil || err.Code != tc.code || string(replyID) != tc.id {
				t.Errorf("%s: got %+v, reply id %s, err %v", tc.line, m, replyID, err)
			}
			continue
		}
		if err != nil || m.Kind != tc.kind || string(m.ID) != tc.id || m.Method != tc.method || string(m.Params) != tc.params || (m.Error != nil) != tc.isError {
			t.Errorf("%s: got %+v, err %v", tc.line, m, err)
		}
	}
}

func TestEcho(t *testing.T) {
	if got := Echo("session/new"); got != "session/new" {
		t.Errorf("short: %q", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Echo(long)
	if len(got) > 80+len("…") || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("long: %d bytes, %q", len(got), got)
	}
}

func TestDecodeParams(t *testing.T) {
	var p struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	if err := DecodeParams(nil, &p); err != nil {
		t.Errorf("absent params: %v", err)
	}
	if err := DecodeParams(json.RawMessage(`{"name":"x","count":2}`), &p); err != nil || p.Name != "x" || p.Count != 2 {
		t.Errorf("got %+v, %v", p, err)
	}
	if err := DecodeParams(json.RawMessage(`[1]`), &p); err == nil || err.Code != InvalidParams {
		t.Errorf("array params: %v", err)
	}
	if err := DecodeParams(json.RawMessage(`{"count":"two"}`), &p); err == nil || err.Code != InvalidParams || err.Message != "count must be a number, not string" {
		t.Errorf("wrong type: %v", err)
	}
}

// FuzzDecode: any line decodes to a well-formed message or to an error with
// a standard code, and the id to answer to is always a valid one.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"a"}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"outcome":"selected"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no"}}`,
		`[1,2]`, `"s"`, `{}`, `{"jsonrpc":"2.0","id":[1]}`, "\x00", `{"jsonrpc":"2.0","id":1e400,"method":"m"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, replyID, err := Decode(line)
		if err != nil {
			if err.Code != ParseError && err.Code != InvalidRequest {
				t.Fatalf("code %d for %q", err.Code, line)
			}
			if replyID != nil && !ValidID(replyID) {
				t.Fatalf("invalid reply id %q", replyID)
			}
			return
		}
		if m.ID != nil && !ValidID(m.ID) {
			t.Fatalf("invalid id %q", m.ID)
		}
		switch m.Kind {
		case Request:
			if m.Method == "" || m.ID == nil {
				t.Fatalf("request without method or id: %+v", m)
			}
		case Notification:
			if m.Method == "" || m.ID != nil {
				t.Fatalf("bad notification: %+v", m)
			}
		case Response:
			if m.ID == nil || (m.Result == nil && m.Error == nil) {
				t.Fatalf("bad response: %+v", m)
			}
		default:
			t.Fatalf("no kind for %q", line)
		}
		if m.Params != nil && m.Params[0] != '{' && m.Params[0] != '[' {
			t.Fatalf("params %q", m.Params)
		}
		if _, err := json.Marshal(struct {
			ID json.RawMessage `json:"id"`
		}{m.ID}); m.ID != nil && err != nil {
			t.Fatalf("cannot answer id %q: %v", m.ID, err)
		}
	})
}
