package hook

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// BenchmarkFire measures one PreToolUse hook that reads its input and
// exits 0: the cost a hook adds to each tool call (a shell and its
// process group).
func BenchmarkFire(b *testing.B) {
	m, _ := ParseMatcher("Bash")
	h := New(Config{Events: map[Event][]Group{PreToolUse: {{Matcher: m, Hooks: []Command{{Command: "IFS= read -r x; exit 0", Timeout: 10 * time.Second}}}}}},
		Options{Dir: b.TempDir(), Getenv: os.Getenv})
	in := Input{HookEventName: PreToolUse, ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Fire(context.Background(), in, "Bash"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFireNoMatch measures a tool call no hook's matcher selects.
func BenchmarkFireNoMatch(b *testing.B) {
	m, _ := ParseMatcher("Edit|Write")
	h := New(Config{Events: map[Event][]Group{PreToolUse: {{Matcher: m, Hooks: []Command{{Command: "exit 2", Timeout: time.Second}}}}}},
		Options{Dir: b.TempDir(), Getenv: os.Getenv})
	in := Input{HookEventName: PreToolUse, ToolName: "Bash"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Fire(context.Background(), in, "Bash", "bash"); err != nil {
			b.Fatal(err)
		}
	}
}
