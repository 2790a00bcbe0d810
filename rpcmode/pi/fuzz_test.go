package pi

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// echoBash is a BashRunner that runs nothing: fuzzed input must never reach
// a shell.
type echoBash struct{}

func (echoBash) Run(ctx context.Context, command string, _ func(string)) (BashResult, error) {
	code := 0
	return BashResult{Output: command, ExitCode: &code, Cancelled: ctx.Err() != nil}, nil
}

// FuzzFrames feeds arbitrary bytes to Serve: it must not panic, and it
// must answer every non-blank line with exactly one response (none for an
// extension_ui_response), echoing the line's id whenever the line is a
// JSON object with one.
func FuzzFrames(f *testing.F) {
	seeds := []string{
		"{\"id\":\"1\",\"type\":\"get_state\"}\n",
		"{not json\n{\"id\":\"e1\",\"type\":\"frobnicate\"}\n",
		"{\"id\":\"e2\"}\n\n{\"id\":\"e3\",\"type\":\"get_state\"}\r\n",
		"{\"id\":\"e4\",\"type\":\"get_state\"}{\"id\":\"e5\",\"type\":\"get_state\"}\n",
		"null\n42\n[]\n\"str\"\ntrue\n",
		"{\"id\":7,\"type\":\"set_model\"}\n{\"id\":{\"a\":[1, 2]},\"type\":\"prompt\"}",
		"{\"id\":\"p\",\"type\":\"prompt\",\"message\":\"hi\",\"images\":[{\"type\":\"image\"}]}\n",
		"{\"id\":\"b\",\"type\":\"bash\",\"command\":\"x\"}\n{\"id\":\"ab\",\"type\":\"abort_bash\"}\n",
		"{\"type\":\"extension_ui_response\",\"id\":\"zz\",\"value\":\"x\"}\n",
		"{\"id\":\"s\",\"type\":\"steer\",\"message\":\"a\u2028b\"}\n{\"id\":\"c\",\"type\":\"compact\"}\n",
		"{\"id\":\"long\",\"type\":\"prompt\",\"message\":\"" + strings.Repeat("x", 300) + "\"}\n{\"id\":\"after\",\"type\":\"get_state\"}\n",
		"{\"id\":\"f\",\"type\":\"set_event_filter\",\"events\":null,\"messageUpdates\":\"delta\"}\n",
		"{\"id\":\"t\",\"type\":\"set_thinking_level\",\"level\":\"high\",\"persist\":\"yes\"}\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sess, err := agent.New(agent.Config{
			Model: faux.Model,
			Open: func(core.Model) (agent.Connection, error) {
				return agent.Connection{Provider: faux.New(faux.Options{})}, nil
			},
			Retry: agent.RetrySettings{},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		var out bytes.Buffer
		h := Host{Session: sess, Bash: echoBash{}, MaxFrameBytes: 256}
		if err := Serve(context.Background(), bytes.NewReader(data), &out, h); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		wantResponses, wantIDs := expectedResponses(data, 256)
		gotIDs := map[string]int{}
		responses := 0
		for _, l := range bytes.Split(out.Bytes(), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			var frame map[string]json.RawMessage
			if err := json.Unmarshal(l, &frame); err != nil {
				t.Fatalf("output line is not a JSON object: %q", l)
			}
			if string(frame["type"]) != `"response"` {
				continue
			}
			responses++
			gotIDs[string(frame["id"])]++
		}
		if responses != wantResponses {
			t.Fatalf("%d responses for %d command lines\ninput: %q\noutput: %s", responses, wantResponses, data, out.Bytes())
		}
		for id, n := range wantIDs {
			if gotIDs[id] < n {
				t.Fatalf("id %s echoed %d times, want %d\ninput: %q\noutput: %s", id, gotIDs[id], n, data, out.Bytes())
			}
		}
	})
}

// expectedResponses counts the command lines in data and the ids their
// responses must echo: a line that is a JSON object with an "id" (the
// first object, if several share the line) and fits the limit.
func expectedResponses(data []byte, limit int) (int, map[string]int) {
	ids := map[string]int{}
	n := 0
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		if i == len(lines)-1 && len(l) == 0 {
			break
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(bytes.Trim(l, " \t\r")) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(l))
		parsed := dec.Decode(&obj) == nil && obj != nil
		if parsed && len(l) <= limit {
			var typ string
			if json.Unmarshal(obj["type"], &typ) == nil && typ == "extension_ui_response" && !dec.More() && json.Valid(l) {
				continue
			}
		}
		n++
		if parsed && len(l) <= limit {
			if raw, ok := obj["id"]; ok {
				var b bytes.Buffer
				if json.Compact(&b, raw) == nil {
					ids[b.String()]++
				}
			}
		}
	}
	return n, ids
}

// FuzzAppendUsage checks the hand-written usage encoder against
// encoding/json, floats included.
func FuzzAppendUsage(f *testing.F) {
	f.Add(1431, 7, 0, 0, 0.0, 1e-7, 0.000105, 3.5e21, 12.25)
	f.Add(0, 0, 5, 9, -0.0, 1e-6, 123456789.0, 1e20, 0.1)
	f.Fuzz(func(t *testing.T, in, out, cr, cw int, a, b, c, d, e float64) {
		for _, v := range []float64{a, b, c, d, e} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return
			}
		}
		u := core.Usage{Input: in, Output: out, CacheRead: cr, CacheWrite: cw, TotalTokens: in + out,
			Cost: core.Cost{Input: a, Output: b, CacheRead: c, CacheWrite: d, Total: e}}
		// The optional counts, present or not by the inputs' parity.
		if in%2 == 0 {
			u.Reasoning = &out
		}
		if cr%2 == 1 {
			u.CacheWrite1h = &cw
		}
		want, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendUsage(nil, &u); string(got) != string(want) {
			t.Fatalf("appendUsage\n got %s\nwant %s", got, want)
		}
	})
}
