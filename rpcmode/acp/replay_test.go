package acp

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// firstWriteGate stops the first write to its output until released, so
// a test can act while the server is inside a write.
type firstWriteGate struct {
	w        io.Writer
	armed    chan struct{} // closed to arm the gate
	once     sync.Once
	entered  chan struct{}
	released chan struct{}
}

func (g *firstWriteGate) Write(p []byte) (int, error) {
	select {
	case <-g.armed:
		g.once.Do(func() {
			close(g.entered)
			<-g.released
		})
	default:
	}
	return g.w.Write(p)
}

// TestLoadReadsStoredTextsWhileReplaying: session/load replays a long
// history one notification at a time, reading each tool output back from
// the session file when its notification is written, not all of them up
// front. The file is cut short while the replay is being written: the
// outputs replayed after that come back as the note saying so.
func TestLoadReadsStoredTextsWhileReplaying(t *testing.T) {
	g := &firstWriteGate{armed: make(chan struct{}), entered: make(chan struct{}), released: make(chan struct{})}
	r := newRig(t, rigConfig{files: true, mode: approval.ModeYolo, out: func(w io.Writer) io.Writer { g.w = w; return g }, responses: []faux.Response{
		toolCallResponse("call_1", "read", `{"path":"one.txt"}`), {Text: "read one"},
		toolCallResponse("call_2", "read", `{"path":"two.txt"}`), {Text: "read two"},
		toolCallResponse("call_3", "read", `{"path":"three.txt"}`), {Text: "read three"},
	}})
	// 45 KB each: kept in the session file, and two of them fill the
	// output's 64 KB buffer, so the first write is inside the replay.
	for _, name := range []string{"one", "two", "three"} {
		writeFile(t, filepath.Join(r.cwd, name+".txt"), strings.Repeat(fmt.Sprintf("%-29s\n", "a line of "+name), 1500))
	}
	first := r.newSession()
	for _, name := range []string{"one", "two", "three"} {
		r.response(r.prompt(first, "read "+name))
	}
	r.newSession()
	var files []string
	filepath.WalkDir(r.storeDir, func(p string, _ os.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	var file string
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "call_3") {
			file = f
		}
	}
	if file == "" {
		t.Fatalf("no session file holds the reads among %v", files)
	}

	close(g.armed)
	id := r.call("session/load", map[string]any{"sessionId": first, "cwd": r.cwd, "mcpServers": []any{}})
	select {
	case <-g.entered:
	case <-time.After(waitLimit):
		t.Fatal("nothing of the replay was written")
	}
	if err := os.Truncate(file, 0); err != nil {
		t.Fatal(err)
	}
	close(g.released)

	const note = "[cairn could not read this output back from the session file: "
	whole := r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
	if text := outputText(whole); !strings.HasPrefix(text, "a line of one") || len(text) < 40000 {
		t.Errorf("call_1's output, read before the file was cut: %.100q (%d bytes)", text, len(text))
	}
	cut := r.update("tool_call_update", map[string]any{"toolCallId": "call_3", "status": "completed"})
	if text := outputText(cut); !strings.HasPrefix(text, note) {
		t.Errorf("call_3's output, read after the file was cut, is not the note: %.200q", text)
	}
	if resp := r.response(id); resp.get("error") != nil {
		t.Fatalf("session/load failed: %s", resp.text)
	}
	if bad := r.out.badLines(); len(bad) > 0 {
		t.Errorf("lines that are not JSON: %.200q", bad)
	}
}

// outputText is the text a tool_call_update shows.
func outputText(l *line) string {
	content, _ := l.get("params.update.content").([]any)
	if len(content) != 1 {
		return ""
	}
	block, _ := content[0].(map[string]any)
	inner, _ := block["content"].(map[string]any)
	text, _ := inner["text"].(string)
	return text
}
