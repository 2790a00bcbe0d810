package export

import (
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// generated returns a session of n messages in a typical mix: questions,
// markdown answers with code, and bash calls with their output.
func generated(n int) Document {
	doc := Document{ID: "bench", Messages: make([]core.Message, 0, n)}
	answer := strings.Repeat("Some **markdown** with `code` and a [link](https://example.com).\n\n", 4) +
		"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n"
	output := strings.Repeat("line of command output with <angle> & ampersand\n", 20)
	for i := 0; len(doc.Messages) < n; i++ {
		id := strconv.Itoa(i)
		switch i % 3 {
		case 0:
			doc.Messages = append(doc.Messages, &core.UserMessage{Content: []core.Content{core.TextBlock("Question " + id + ": how does this work?")}, Timestamp: 1})
		case 1:
			doc.Messages = append(doc.Messages, &core.AssistantMessage{Model: "m", Content: []core.Content{core.TextBlock(answer)},
				Usage: core.Usage{Input: 1000, Output: 100, Cost: core.Cost{Total: 0.001}}, StopReason: core.StopEnd, Timestamp: 1})
		case 2:
			doc.Messages = append(doc.Messages,
				&core.AssistantMessage{Model: "m", Content: []core.Content{{Type: core.ContentToolCall, ID: "c" + id, Name: "bash",
					Arguments: json.RawMessage(`{"command":"ls -la"}`)}}, StopReason: core.StopToolUse, Timestamp: 1},
				&core.ToolResultMessage{ToolCallID: "c" + id, ToolName: "bash", Content: []core.Content{core.TextBlock(output)}, Timestamp: 1})
		}
	}
	return doc
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(b []byte) (int, error) { w.n += int64(len(b)); return len(b), nil }

func BenchmarkHTML(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run("messages="+strconv.Itoa(n), func(b *testing.B) {
			doc := generated(n)
			var c countingWriter
			if err := HTML(&c, doc, Options{}); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(c.n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := HTML(io.Discard, doc, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// writeSession writes doc's messages as a session file, one chain of
// message entries, and returns its path.
func writeSession(b *testing.B, doc Document) string {
	b.Helper()
	path := b.TempDir() + "/bench.jsonl"
	var out []byte
	out = append(out, `{"type":"session","version":3,"id":"bench","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`+"\n"...)
	parent := "null"
	for i, m := range doc.Messages {
		raw, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		id := `"` + strconv.FormatInt(int64(0x10000000+i), 16) + `"`
		out = append(out, `{"type":"message","id":`+id+`,"parentId":`+parent+`,"timestamp":"2026-03-01T10:00:01.000Z","message":`...)
		out = append(out, raw...)
		out = append(out, "}\n"...)
		parent = id
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkFromFile exports a 20,000-message session file; its MB/s are
// of the session file.
func BenchmarkFromFile(b *testing.B) {
	path := writeSession(b, generated(20000))
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		doc, err := FromFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(doc.Messages) != 20000 {
			b.Fatalf("%d messages", len(doc.Messages))
		}
		if err := HTML(io.Discard, doc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
