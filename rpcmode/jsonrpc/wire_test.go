package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// readAll reads every frame, writing "TOO LONG" for a refused one.
func readAll(t *testing.T, in string, max int) []string {
	t.Helper()
	fr := newFrameReader(strings.NewReader(in), max)
	var out []string
	for {
		line, err := fr.next()
		switch {
		case errors.Is(err, errTooLong):
			out = append(out, "TOO LONG")
			continue
		case errors.Is(err, io.EOF):
			return out
		case err != nil:
			t.Fatal(err)
		}
		out = append(out, string(line))
	}
}

func TestFrameReader(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"lines", "a\nb\n", []string{"a", "b"}},
		{"crlf and blank lines", "a\r\n\r\n  \nb", []string{"a", "b"}},
		{"last line without newline", "a\nlast", []string{"a", "last"}},
		{"too long, then fine", strings.Repeat("x", 11) + "\nok\n", []string{"TOO LONG", "ok"}},
		{"too long at the end", "ok\n" + strings.Repeat("x", 11), []string{"ok", "TOO LONG"}},
		{"exactly the limit", strings.Repeat("y", 10) + "\r\n", []string{strings.Repeat("y", 10)}},
		{"unicode separators stay in the line", "a\u2028b\n", []string{"a\u2028b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, tc.in, 10)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// A line far over the limit is skipped (core/jsonl checks that it is never
// held whole).
func TestFrameReaderDoesNotHoldLongLines(t *testing.T) {
	fr := newFrameReader(io.MultiReader(strings.NewReader(`{"a":"`), &repeatReader{n: 50 << 20}, strings.NewReader("\"}\n{}\n")), 1<<20)
	if _, err := fr.next(); !errors.Is(err, errTooLong) {
		t.Fatalf("err = %v", err)
	}
	if line, err := fr.next(); err != nil || string(line) != "{}" {
		t.Fatalf("next = %q, %v", line, err)
	}
}

// repeatReader yields n bytes of 'a'.
type repeatReader struct{ n int }

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	copy(p, bytes.Repeat([]byte("a"), n))
	r.n -= n
	return n, nil
}

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
			if req.ID != nil && !validID(req.ID) {
				t.Fatalf("error carries an invalid id %q", req.ID)
			}
			return
		}
		if req.Method == "" || (req.ID != nil && !validID(req.ID)) {
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

func FuzzFrameReader(f *testing.F) {
	for _, s := range []string{"a\nb\n", "\r\n\r\n", strings.Repeat("z", 40) + "\nq", "x\r", "\n\n\nend"} {
		f.Add([]byte(s), uint8(16))
	}
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		max := int(limit%64) + 1
		fr := newFrameReader(bytes.NewReader(in), max)
		for range len(in) + 2 {
			line, err := fr.next()
			if errors.Is(err, errTooLong) {
				continue
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				return
			}
			if len(line) == 0 || len(line) > max || bytes.ContainsAny(line, "\n") || !bytes.Contains(in, line) {
				t.Fatalf("frame %q (limit %d) from %q", line, max, in)
			}
		}
		t.Fatalf("the reader did not reach the end of %q", in)
	})
}
