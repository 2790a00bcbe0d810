package synaps

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzDecodeCommand: any line either decodes to a known command or fails
// with a frameError; neither panics, and a decoded command has what its
// type needs.
func FuzzDecodeCommand(f *testing.F) {
	seeds := []string{
		`{"type":"prompt","id":"1","message":"hi"}`,
		`{"type":"prompt","id":"1","message":"hi","attachments":[{"path":"/a","name":"a","mime":"text/plain"}]}`,
		`{"type":"prompt","id":"1","message":"hi","attachments":[{"path":"../a"}]}`,
		`{"type":"follow_up","id":"2","message":"more"}`,
		`{"type":"set_model","id":"3","model":"faux-1"}`,
		`{"type":"tools_list"}`, `{"type":"tools_list","id":null}`, `{"type":"shutdown"}`,
		`{"type":"abort","id":7}`, `{"type":7}`, `{"id":"x"}`, `{}`, `[]`, `null`, `"x"`, `{"type":"prompt"`,
		"{\"type\":\"get_state\",\"id\":\"\u2028\"}", `{"type":"get_state","id":"a","type":"abort"}`,
		`{"type":"rewind","id":"r","steps":2,"restore":"code"}`, `{"type":"rewind","id":"r","redo":true,"preview":true}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := decodeCommand(line)
		if err != nil {
			var fe *frameError
			if !errors.As(err, &fe) || fe.Msg == "" {
				t.Fatalf("error %v is not a frameError with a message", err)
			}
			if !fe.HasID && fe.ID != "" {
				t.Fatalf("frameError has an id but says it has none: %+v", fe)
			}
			return
		}
		needsID, known := commandTypes[c.Type]
		if !known || (needsID && !c.HasID) {
			t.Fatalf("decoded %+v from %q", c, line)
		}
		if c.Type == "rewind" && (c.Rewind.Steps < 0 || (c.Rewind.Redo && c.Rewind.Preview)) {
			t.Fatalf("rewind %+v from %q", c.Rewind, line)
		}
		if c.Type == "set_model" && strings.TrimSpace(c.Model) == "" {
			t.Fatalf("set_model without a model from %q", line)
		}
		for _, a := range c.Attachments {
			if !strings.HasPrefix(a.Path, "/") || strings.Contains(a.Path, "/../") || strings.HasSuffix(a.Path, "/..") {
				t.Fatalf("attachment path %q accepted", a.Path)
			}
		}
		// Whatever decodes, the frames about it encode as JSON.
		id := c.ID
		if !json.Valid(responseFrame(&id, c.Type, body{"ok": true, "echo": c.Message})) || !json.Valid(errorFrame(&id, c.Message)) {
			t.Fatalf("invalid frame for %+v", c)
		}
	})
}
