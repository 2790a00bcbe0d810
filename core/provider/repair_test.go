package provider

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRepairArguments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"command":"ls"}`, `{"command":"ls"}`},
		// The closing brace missing: pi runs the call, and so does cairn.
		{`{"command":"ls -la"`, `{"command":"ls -la"}`},
		{`{"path":"a.go","edits":[{"oldText":"x","newText":"y"}`, `{"path":"a.go","edits":[{"oldText":"x","newText":"y"}]}`},
		{`{"all":true`, `{"all":true}`},
		{"{\"text\":\"two\nlines\"}", `{"text":"two\nlines"}`},
		{`{"pattern":"\d+"}`, `{"pattern":"\\d+"}`},
		// Cut inside a value: refused (pi completes it).
		{`{"command":"rm -rf /tmp/a`, ""},
		{`{"n":12`, ""},
		{`{"command":`, ""},
		{`{"a":1,`, ""},
		{`{"a"`, ""},
		{`{"a":1}}`, ""},
		{`{"a":1} {"b":2}`, ""},
	} {
		got, ok := repairArguments(c.in)
		if c.want == "" {
			if ok {
				t.Errorf("%q mended to %q, want it refused", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%q = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func FuzzRepairArguments(f *testing.F) {
	for _, s := range []string{`{"a":1`, `{"a":"b\c"`, "{\"a\":\"\t\"}", `{"a":[true`, `[`, `{"a":"x\u00`, `{"a":"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := repairArguments(s)
		if json.Valid([]byte(s)) && (!ok || got != s) {
			t.Fatalf("valid %q changed to %q", s, got)
		}
		if ok && !json.Valid([]byte(got)) {
			t.Fatalf("%q mended to invalid %q", s, got)
		}
		// Only closers are ever added after the text (with its string
		// fixes): what was sent is never cut.
		if ok && !json.Valid([]byte(s)) {
			fixed := repairStrings(s)
			if !strings.HasPrefix(got, strings.TrimRight(fixed, " \t\r\n")) {
				t.Fatalf("%q mended to %q, which does not start with %q", s, got, fixed)
			}
		}
	})
}
