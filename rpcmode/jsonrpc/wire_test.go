package jsonrpc

import (
	"bytes"
	"testing"

	"github.com/cairn-dev/cairn/core/jsonrpc2"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDecodeRequest(t *testing.T) {
	cases := []struct {
		line   string
		code   int
		id     string
		method string
		params string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 0, "1", "initialize", "{}"},
		{`{"jsonrpc":"2.0","id":"a","method":"m","params":[1]}`, 0, `"a"`, "m", "[1]"},
		{`{"jsonrpc":"2.0","id":null,"method":"m"}`, 0, "null", "m", ""},
		{`{"jsonrpc":"2.0","method":"context.update","params":{}}`, 0, "", "context.update", "{}"},
		{`nope`, CodeParseError, "", "", ""},
		{`{"jsonrpc":"2.0",`, CodeParseError, "", "", ""},
		{`[]`, CodeInvalidRequest, "", "", ""},
		{`"text"`, CodeInvalidRequest, "", "", ""},
		{`{"id":1,"method":"m"}`, CodeInvalidRequest, "1", "", ""},
		{`{"jsonrpc":"2.0","id":true,"method":"m"}`, CodeInvalidRequest, "", "", ""},
		{`{"jsonrpc":"2.0","id":2,"method":""}`, CodeInvalidRequest, "2", "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, CodeInvalidRequest, "3", "", ""},
		{`{"jsonrpc":"2.0","id":4,"method":"m","params":5}`, CodeInvalidRequest, "4", "", ""},
		{`{"jsonrpc":"2.0","id":5,"METHOD":"m"}`, CodeInvalidRequest, "5", "", ""},
	}
	for _, tc := range cases {
		req, err := decodeRequest([]byte(tc.line))
		code := 0
		if err != nil {
			code = err.Code
		}
		if code != tc.code || string(req.ID) != tc.id || (err == nil && (req.Method != tc.method || string(req.Params) != tc.params)) {
			t.Errorf("%s: got %+v %v", tc.line, req, err)
		}
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":"1.0.0"}}`,
		`{"jsonrpc":"2.0","method":"context.update","params":{"cwd":"/"}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tool.approve","params":{"execution_id":"exec-1","approved":true}}`,
		`[{"jsonrpc":"2.0"}]`, `{"id":{}}`, `nul`, "{\"jsonrpc\":\"2.0\",\"id\":1e999,\"method\":\"m\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := decodeRequest(line)
		if err != nil {
			if err.Code != CodeParseError && err.Code != CodeInvalidRequest {
				t.Fatalf("code %d", err.Code)
			}
			if req.ID != nil && !jsonrpc2.ValidID(req.ID) {
				t.Fatalf("error carries an invalid id %q", req.ID)
			}
			return
		}
		if req.Method == "" || (req.ID != nil && !jsonrpc2.ValidID(req.ID)) {
			t.Fatalf("accepted %+v", req)
		}
		if req.Params != nil && req.Params[0] != '{' && req.Params[0] != '[' {
			t.Fatalf("params %q", req.Params)
		}
		// Every response built for it encodes.
		out := encodeLine(response{JSONRPC: "2.0", ID: req.ID, Result: map[string]string{"ok": req.Method}})
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("response %q", out)
		}
	})
}
