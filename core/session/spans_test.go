package session

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// bigOutput is a command's output of about n bytes with everything JSON
// escapes: newlines, tabs, quotes, backslashes and non-ASCII.
func bigOutput(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("--- PASS: TestCase\t\"ok\" \\ é ✓ ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteByte('\n')
	}
	return b.String()
}

func toolResult(id, text string) *core.ToolResultMessage {
	return &core.ToolResultMessage{ToolCallID: id, ToolName: "bash", Content: []core.Content{core.TextBlock(text)}, Timestamp: 1}
}

// resultOf returns the tool result among msgs answering call id.
func resultOf(t testing.TB, msgs []core.Message, id string) *core.ToolResultMessage {
	t.Helper()
	for _, m := range msgs {
		if tr, ok := m.(*core.ToolResultMessage); ok && tr.ToolCallID == id {
			return tr
		}
	}
	t.Fatalf("no result for %s among %d messages", id, len(msgs))
	return nil
}

// TestLargeToolResultsStayInTheFile: a large tool result read from a file
// or appended to it is kept as a span of the file and reads back exactly,
// also after the file is closed; a small one is held as it is.
func TestLargeToolResultsStayInTheFile(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	large, small := bigOutput(100_000), "ok\n"
	mustAppend(t, f, &MessageEntry{user("run it")})
	mustAppend(t, f, &MessageEntry{assistant("running")})
	mustAppend(t, f, &MessageEntry{toolResult("a", large)})
	mustAppend(t, f, &MessageEntry{toolResult("b", small)})
	id, err := f.AppendMessage(toolResult("c", large+"more"))
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := f.KeptMessage(id).(*core.ToolResultMessage)
	if !ok || kept.Content[0].Stored == nil || kept.Content[0].Text != "" {
		t.Fatalf("appended large result is held in memory: %#v", f.KeptMessage(id))
	}
	if got := kept.Content[0].FullText(); got != large+"more" {
		t.Fatalf("appended result reads back %d bytes, want %d", len(got), len(large)+4)
	}
	path := f.FilePath()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got := kept.Content[0].FullText(); got != large+"more" {
		t.Fatalf("after Close the result reads back %d bytes, want %d", len(got), len(large)+4)
	}

	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	msgs := g.Context().Messages
	a, b := resultOf(t, msgs, "a"), resultOf(t, msgs, "b")
	if a.Content[0].Stored == nil || a.Content[0].Text != "" {
		t.Fatal("a large result read from the file is held in memory")
	}
	if b.Content[0].Stored != nil || b.Content[0].Text != small {
		t.Fatalf("a small result is not held as it is: %#v", b.Content[0])
	}
	if got := a.Content[0].FullText(); got != large {
		t.Fatalf("result reads back %d bytes, want %d", len(got), len(large))
	}
	if n := a.Content[0].TextLen(); n < len(large) || n > len(large)*2 {
		t.Errorf("TextLen = %d for a text of %d bytes", n, len(large))
	}
	// JSON of the stored message is that of the original.
	want, _ := json.Marshal(toolResult("a", large))
	if got, _ := json.Marshal(a); string(got) != string(want) {
		t.Error("the stored message does not encode as the original")
	}
	if got := core.LoadedContent(a.Content); got[0].Stored != nil || got[0].Text != large || a.Content[0].Stored == nil {
		t.Error("LoadedContent does not read the text back into a copy")
	}
}

// oneResultFile writes a session whose one tool result, "a", is n bytes
// of output, and returns its path.
func oneResultFile(t *testing.T, n int) string {
	t.Helper()
	f := testStore(t).Create("/p")
	mustAppend(t, f, &MessageEntry{user("run it")})
	mustAppend(t, f, &MessageEntry{assistant("running")})
	mustAppend(t, f, &MessageEntry{toolResult("a", bigOutput(n))})
	f.Close()
	return f.FilePath()
}

// TestStoredTextCutShort: a file cut short after it was opened makes the
// stored text read back as a note saying so, not as nothing or garbage.
func TestStoredTextCutShort(t *testing.T) {
	path := oneResultFile(t, 50_000)
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a := resultOf(t, g.Context().Messages, "a")
	fi, _ := os.Stat(path)
	if err := os.Truncate(path, fi.Size()-30_000); err != nil {
		t.Fatal(err)
	}
	got := a.Content[0].FullText()
	if !strings.Contains(got, "could not read this output back") {
		t.Fatalf("a cut-short text reads back as %q", got[:min(len(got), 80)])
	}
}

// TestStoredTextInvalidJSON: a large string that is not valid JSON inside
// (skimmed, not validated, when the file is opened) reads back as a note.
func TestStoredTextInvalidJSON(t *testing.T) {
	path := oneResultFile(t, 20_000)
	b, _ := os.ReadFile(path)
	// A bad escape in the middle of the large text.
	i := strings.Index(string(b), `\\ é`)
	b[i+1] = 'q'
	os.WriteFile(path, b, 0o600)
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	got := resultOf(t, g.Context().Messages, "a").Content[0].FullText()
	if !strings.Contains(got, "could not read this output back") || !strings.Contains(got, "escape") {
		t.Fatalf("an invalid stored text reads back as %q", got[:min(len(got), 120)])
	}
}

// TestOpenInHalvesMatchesInOrder: a file read as two halves at once opens
// exactly as when read in order: the same entries, tree, labels, name and
// warnings (line numbers and offsets included), with broken lines in each
// half and one right at the split.
func TestOpenInHalvesMatchesInOrder(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("start")})
	mustAppend(t, f, &MessageEntry{assistant("ok")})
	for i := range 60 {
		id := "c" + strconv.Itoa(i)
		mustAppend(t, f, &MessageEntry{user("q" + strconv.Itoa(i))})
		mustAppend(t, f, &MessageEntry{toolResult(id, bigOutput(20_000+i))})
		e := mustAppend(t, f, &MessageEntry{assistant("a" + strconv.Itoa(i))})
		if i%20 == 0 {
			mustAppend(t, f, &LabelEntry{TargetID: e.ID, Label: "l" + strconv.Itoa(i)})
			mustAppend(t, f, &SessionInfoEntry{Name: "name " + strconv.Itoa(i)})
		}
	}
	path := f.FilePath()
	f.Close()
	// Break a line in each half.
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	lines[10] = `{"type":"message","id":"broken1"` + "\n"
	lines[len(lines)*3/4] = "not json at all\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600)

	open := func(min int64) (*File, string) {
		t.Helper()
		old := parallelLoadMin
		parallelLoadMin = min
		defer func() { parallelLoadMin = old }()
		g, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, w := range g.Warnings() {
			fmt.Fprintf(&out, "warning %d %d %v %v\n", w.Line, w.Offset, w.Truncated, w.Err)
		}
		for _, n := range g.Nodes() {
			fmt.Fprintf(&out, "node %+v\n", n)
		}
		for _, e := range g.ActiveBranch() {
			j, _ := json.Marshal(e)
			out.Write(j)
			out.WriteByte('\n')
		}
		fmt.Fprintf(&out, "name %q leaf %s\n", g.Name(), g.Leaf())
		return g, out.String()
	}
	seq, want := open(1 << 62)
	defer seq.Close()
	if len(seq.Warnings()) != 2 {
		t.Fatalf("warnings in order: %v", seq.Warnings())
	}
	// Every split point a line boundary allows, around the middle.
	for _, split := range []int64{1, int64(len(b)) / 3, int64(len(b)) / 2} {
		par, got := open(split)
		if got != want {
			t.Errorf("split at %d: read in halves differs from read in order:\n%s", split, firstDiff(got, want))
		}
		par.Close()
	}
	// Appending to a file read in halves goes on after its leaf.
	par, _ := open(1)
	leaf := par.Leaf()
	e, err := par.Append(&MessageEntry{user("after")})
	if err != nil || e.ParentID == nil || *e.ParentID != leaf {
		t.Fatalf("append after reading in halves: %+v, %v", e, err)
	}
	par.Close()
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.300s\nwant %.300s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(g), len(w))
}
