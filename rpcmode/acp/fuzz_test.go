package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
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

// FuzzFrameReader checks that the reader returns every line within the
// limit, refuses longer ones without losing the lines after them, and
// ends with io.EOF.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\n\n  \nccc"), 3)
	f.Add([]byte(strings.Repeat("x", 100)+"\nok\n"), 10)
	f.Add([]byte("\r\n\r\n"), 1)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		var want []string
		long := 0
		for _, l := range strings.Split(string(in), "\n") {
			l = strings.TrimSuffix(l, "\r")
			if strings.TrimSpace(l) == "" {
				if len(l) > max {
					long++
				}
				continue
			}
			if len(l) > max {
				long++
				continue
			}
			want = append(want, l)
		}
		fr := newFrameReader(bytes.NewReader(in), max)
		var got []string
		tooLong := 0
		for {
			line, err := fr.next()
			if errors.Is(err, errFrameTooLong) {
				tooLong++
				continue
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(line))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("lines %q, want %q (max %d)", got, want, max)
		}
		if tooLong != long {
			t.Fatalf("%d refused, want %d", tooLong, long)
		}
	})
}
