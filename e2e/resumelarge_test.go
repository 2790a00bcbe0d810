package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeLongSession writes an n-exchange session in pi's format (version 3)
// where cairn --continue looks for the project's sessions: each exchange
// is a question, a bash call, its result of toolBytes bytes of test log,
// and an answer ending "whole story for case N". It returns the file's
// path and its lines.
func writeLongSession(t *testing.T, h *harness, n, toolBytes int) (string, []string) {
	t.Helper()
	dir := filepath.Join(h.home, ".cairn", "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(h.project, "/"), "/", "-")+"--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	iso := func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z") }
	var lines []string
	parent := any(nil)
	add := func(m map[string]any, at time.Time) {
		id := fmt.Sprintf("%08x", len(lines))
		m["id"], m["parentId"], m["timestamp"] = id, parent, iso(at)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
		parent = id
	}
	header, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": "0190a000-0000-7000-8000-000000000001", "timestamp": iso(start), "cwd": h.project})
	lines = append(lines, string(header))
	add(map[string]any{"type": "model_change", "provider": "openai", "modelId": "test-model"}, start)
	usage := map[string]any{"input": 100, "output": 40, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 140,
		"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
	var log strings.Builder
	for i := 0; log.Len() < toolBytes; i++ {
		fmt.Fprintf(&log, "=== RUN   TestParse/step_%04d\n--- PASS: TestParse/step_%04d (0.00s)\n", i, i)
	}
	out := log.String()[:toolBytes]
	for i := 1; i <= n; i++ {
		at := start.Add(time.Duration(i) * time.Minute)
		msg := func(m map[string]any) map[string]any {
			m["timestamp"] = at.UnixMilli()
			return map[string]any{"type": "message", "message": m}
		}
		add(msg(map[string]any{"role": "user", "content": []any{map[string]any{"type": "text",
			"text": fmt.Sprintf("Question %d: how does the parser handle case %d?", i, i)}}}), at)
		call := fmt.Sprintf("call_%d", i)
		add(msg(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": call, "name": "bash",
			"arguments": map[string]any{"command": fmt.Sprintf("go test ./case%d/", i)}}},
			"api": "openai-completions", "provider": "openai", "model": "test-model", "usage": usage, "stopReason": "toolUse"}), at)
		add(msg(map[string]any{"role": "toolResult", "toolCallId": call, "toolName": "bash",
			"content": []any{map[string]any{"type": "text", "text": out}}, "isError": false}), at)
		add(msg(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text",
			"text": fmt.Sprintf("Answer %d. The parser reads the input in one pass.\n\nThat is the whole story for case %d.", i, i)}},
			"api": "openai-completions", "provider": "openai", "model": "test-model", "usage": usage, "stopReason": "stop"}), at)
	}
	path := filepath.Join(dir, "2026-11-01T09-00-00-000Z_0190a000-0000-7000-8000-000000000001.jsonl")
	writeLines(t, path, lines)
	return path, lines
}

func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestResumeLargeSession resumes a 4 MB session of 400 exchanges, each
// with a 10 KB bash result: the first screen shows the last answer, and
// Home on the empty editor scrolls back to the first question, End to the
// last answer again.
func TestResumeLargeSession(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	const n = 400
	path, _ := writeLongSession(t, h, n, 10_000)
	if st, err := os.Stat(path); err != nil || st.Size() < 4_000_000 {
		t.Fatalf("the session is not the size meant: %v, %v", st, err)
	}
	p := h.cairn("resume", 120, 40, "--continue")
	last := fmt.Sprintf("whole story for case %d.", n)
	screen := p.waitText(last, "test-model")
	if !strings.Contains(screen, fmt.Sprintf("Answer %d.", n)) || strings.Contains(screen, "Question 1:") {
		t.Fatalf("the first screen is not the end of the session:\n%s", screen)
	}
	p.keys("Home")
	// Waited for whole: a capture can fall between the rows of one frame
	// (seen once under -race on a loaded machine: the new top, the old
	// bottom).
	p.waitFor("Home to show the start of the session", func(s string) bool {
		return strings.Contains(s, "Question 1:") && strings.Contains(s, "go test ./case1/") && !strings.Contains(s, last)
	})
	p.keys("PageDown")
	p.waitGone("Question 1:")
	p.keys("End")
	p.waitText(last)
}

// TestResumeSessionWithBrokenLine breaks a line in the middle of a session:
// cairn still resumes it, showing its last answer, and the warning names
// the broken line.
func TestResumeSessionWithBrokenLine(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	const n = 200
	path, lines := writeLongSession(t, h, n, 2_000)
	// The question of exchange 100: after the header and the model change,
	// each exchange is four lines.
	broken := 2 + 99*4 + 1
	if !strings.Contains(lines[broken-1], "Question 100:") {
		t.Fatalf("line %d is not the question meant: %.80s", broken, lines[broken-1])
	}
	lines[broken-1] = lines[broken-1][:len(lines[broken-1])/2]
	writeLines(t, path, lines)
	p := h.cairn("broken", 120, 40, "--continue")
	// The warning is wrapped to the pane (at spaces and after hyphens of
	// the file's path): it is looked for with the lines joined.
	warning := fmt.Sprintf(".jsonl: line %d: ", broken)
	screen := p.waitFor("the last answer and the warning", func(s string) bool {
		joined := strings.Join(strings.Fields(s), " ")
		return strings.Contains(joined, fmt.Sprintf("whole story for case %d.", n)) &&
			strings.Contains(joined, "warning: session") && strings.Contains(joined, warning)
	})
	if !strings.Contains(screen, fmt.Sprintf("Answer %d.", n)) {
		t.Fatalf("the resumed session does not end with its last answer:\n%s", screen)
	}
}

// TestResumeLargeSessionKeepsEarlyKeys: what is typed at once, while the
// large session is still being read (its end shown from the file's tail),
// reaches the editor once it is live.
func TestResumeLargeSessionKeepsEarlyKeys(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	const n = 600
	writeLongSession(t, h, n, 10_000)
	p := h.cairn("earlykeys", 120, 40, "--continue")
	p.typeText("typed early")
	screen := p.waitFor("the typed words in the live editor", func(s string) bool {
		return strings.Contains(s, "> typed early") && !strings.Contains(s, "reading the session") &&
			strings.Contains(s, fmt.Sprintf("whole story for case %d.", n))
	})
	if strings.Count(screen, "typed early") != 1 {
		t.Fatalf("the early words are not in the editor once:\n%s", screen)
	}
}
