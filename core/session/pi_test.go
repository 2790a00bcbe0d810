package session

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// jsonValue decodes JSON into generic values for comparisons that ignore
// key order and escaping.
func jsonValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", data, err)
	}
	return v
}

// TestOpenPiFile opens a session written by pi 0.73.1 itself (prompt with a
// bash tool call and thinking, a "!" command, a session name, a second
// prompt, /compact, a third prompt) and checks that cairn sees what pi saw.
func TestOpenPiFile(t *testing.T) {
	f, err := Open("testdata/pi-0.73.1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := f.Warnings(); len(w) != 0 {
		t.Fatalf("warnings: %v", w)
	}
	h := f.Header()
	if h.Version != 3 || h.ID != "01a1fcd0-2376-7724-a311-717804497f2d" || h.Cwd != "/tmp/pi/work" || h.ParentSession != "" {
		t.Errorf("header = %+v", h)
	}
	if got := f.Name(); got != "fixture session" {
		t.Errorf("Name() = %q", got)
	}
	if got := f.Leaf(); got != "77abf0d4" {
		t.Errorf("Leaf() = %q, want the last entry", got)
	}

	// pi answered get_messages with this context at the end of the run.
	want, err := os.ReadFile("testdata/pi-0.73.1.messages.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := f.Context()
	got, err := json.Marshal(ctx.Messages)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jsonValue(t, got), jsonValue(t, want)) {
		t.Errorf("Context().Messages\n got %s\nwant %s", got, want)
	}
	if ctx.ThinkingLevel != core.ThinkingLow || ctx.Model == nil || *ctx.Model != (ModelRef{"fake-anthropic", "fake-claude"}) {
		t.Errorf("context thinking %q model %+v", ctx.ThinkingLevel, ctx.Model)
	}
}

// TestPiLinesReencodeExactly decodes every line pi wrote and encodes it
// again: the bytes must be the same, key order included.
func TestPiLinesReencodeExactly(t *testing.T) {
	data, err := os.ReadFile("testdata/pi-0.73.1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var d decoder
	h, err := d.header([]byte(lines[0]))
	if err != nil {
		t.Fatal(err)
	}
	if got := appendHeader(nil, h); string(got) != lines[0] {
		t.Errorf("header\n got %s\nwant %s", got, lines[0])
	}
	for i, line := range lines[1:] {
		e, err := d.entry([]byte(line))
		if err != nil || d.soft != nil {
			t.Fatalf("line %d: %v %v", i+2, err, d.soft)
		}
		if _, unknown := e.Payload.(*UnknownEntry); unknown {
			t.Fatalf("line %d decoded as unknown", i+2)
		}
		got, err := appendEntry(nil, &e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, []byte(line)) {
			t.Errorf("line %d\n got %s\nwant %s", i+2, got, line)
		}
	}
}
