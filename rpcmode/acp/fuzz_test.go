package acp

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeMessage checks that any frame decodes to a message or to an
// error with a JSON-RPC code, never panics, and that what it answers to
// is a valid id.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"a"}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"outcome":{"outcome":"selected","optionId":"allow_once"}}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"x"}`,
		`[1,2]`, `"s"`, `{}`, `{"jsonrpc":"2.0","id":[1]}`, "\x00", `{"jsonrpc":"2.0","id":1e400,"method":"m"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, id, err := decodeMessage(frame)
		if err != nil {
			switch err.Code {
			case CodeParseError, CodeInvalidRequest, CodeInvalidParams:
			default:
				t.Fatalf("code %d for %q", err.Code, frame)
			}
			if id != nil && !json.Valid(id) {
				t.Fatalf("invalid reply id %q", id)
			}
			return
		}
		switch m.kind {
		case kindRequest:
			if m.Method == "" || m.ID == nil {
				t.Fatalf("request without method or id: %+v", m)
			}
		case kindNotification:
			if m.Method == "" || m.ID != nil {
				t.Fatalf("bad notification: %+v", m)
			}
		case kindResponse:
			if m.ID == nil || (m.Result == nil && m.Error == nil) {
				t.Fatalf("bad response: %+v", m)
			}
		default:
			t.Fatalf("no kind for %q", frame)
		}
		// A message that decodes answers with a valid frame.
		if _, err := json.Marshal(response{JSONRPC: "2.0", ID: m.ID, Result: struct{}{}}); m.ID != nil && err != nil {
			t.Fatalf("cannot answer id %q: %v", m.ID, err)
		}
	})
}
