package session

import (
	"encoding/json"
	"os"
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

// TestStoredTextCutShort: a file cut short after it was opened makes the
// stored text read back as a note saying so, not as nothing or garbage.
func TestStoredTextCutShort(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("run it")})
	mustAppend(t, f, &MessageEntry{assistant("running")})
	mustAppend(t, f, &MessageEntry{toolResult("a", bigOutput(50_000))})
	path := f.FilePath()
	f.Close()
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
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("run it")})
	mustAppend(t, f, &MessageEntry{assistant("running")})
	mustAppend(t, f, &MessageEntry{toolResult("a", bigOutput(20_000))})
	path := f.FilePath()
	f.Close()
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
