package compaction

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestEstimateTokens(t *testing.T) {
	exit := 1
	tests := []struct {
		name string
		msg  core.Message
		want int
	}{
		{"user text rounds up", user("abcde"), 2},
		{"user image counts 1200", &core.UserMessage{Content: []core.Content{core.ImageBlock("AAAA", "image/png")}}, 1200},
		{"characters, not bytes", user("héllo wörld"), 3},
		{"assistant text, thinking and call", &core.AssistantMessage{Content: []core.Content{
			core.TextBlock(text(2)),
			{Type: core.ContentThinking, Thinking: text(3)},
			{Type: core.ContentToolCall, Name: "read", Arguments: []byte(`{"path":"a.go"}`)}, // 4 + 15 chars
		}}, 2 + 3 + 5},
		{"tool result with image", &core.ToolResultMessage{Content: []core.Content{core.TextBlock(text(10)), core.ImageBlock("AAAA", "image/png")}}, 1210},
		{"custom", &core.CustomMessage{Content: []core.Content{core.TextBlock(text(7))}}, 7},
		{"bash command and output", &core.BashExecutionMessage{Command: "ls", Output: "go.mod\n", ExitCode: &exit}, 3},
		{"!! command stays out of the context", &core.BashExecutionMessage{Command: "ls", Output: text(100), ExcludeFromContext: true}, 0},
		{"compaction summary", &core.CompactionSummaryMessage{Summary: text(50)}, 50},
		{"branch summary", &core.BranchSummaryMessage{Summary: text(9)}, 9},
		{"unknown role", &core.RawMessage{Role: "future", JSON: []byte(`{"role":"future","text":"long long long"}`)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EstimateTokens(tt.msg); got != tt.want {
				t.Fatalf("EstimateTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestContextTokens(t *testing.T) {
	withUsage := func(u core.Usage, stop core.StopReason, ts int64) *core.AssistantMessage {
		a := assistant(text(10))
		a.Usage, a.StopReason, a.Timestamp = u, stop, ts
		return a
	}
	parts := core.Usage{Input: 1000, Output: 200, CacheRead: 3000, CacheWrite: 400}
	tests := []struct {
		name     string
		messages []core.Message
		want     int
	}{
		{"no usage: estimates", []core.Message{user(text(5)), assistant(text(7))}, 12},
		{"usage parts summed, later messages estimated",
			[]core.Message{user(text(5)), withUsage(parts, core.StopEnd, 1), user(text(8))}, 4600 + 8},
		{"total tokens preferred", []core.Message{withUsage(core.Usage{Input: 1, TotalTokens: 999}, core.StopToolUse, 1), result("c", "bash", text(3))}, 1002},
		{"newest usage wins",
			[]core.Message{withUsage(core.Usage{Input: 10}, core.StopEnd, 1), user(""), withUsage(core.Usage{Input: 500}, core.StopEnd, 2)}, 500},
		{"errors and aborts are skipped",
			[]core.Message{withUsage(core.Usage{Input: 700}, core.StopEnd, 1), user(text(2)), withUsage(core.Usage{Input: 90000}, core.StopError, 2), withUsage(core.Usage{}, core.StopAborted, 3)},
			700 + 2 + 10 + 10},
		{"zero usage is no usage",
			[]core.Message{withUsage(core.Usage{Input: 300}, core.StopEnd, 1), withUsage(core.Usage{}, core.StopEnd, 2)}, 310},
		{"usage from before the compaction is stale",
			[]core.Message{&core.CompactionSummaryMessage{Summary: text(40), Timestamp: 100}, user(text(6)), withUsage(core.Usage{Input: 150000}, core.StopEnd, 50)},
			40 + 6 + 10},
		{"usage after the compaction counts",
			[]core.Message{&core.CompactionSummaryMessage{Summary: text(40), Timestamp: 100}, withUsage(core.Usage{Input: 150000}, core.StopEnd, 50), user(""), withUsage(core.Usage{Input: 9000}, core.StopEnd, 200), user(text(1))},
			9001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ContextTokens(tt.messages); got != tt.want {
				t.Fatalf("ContextTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestShouldCompact(t *testing.T) {
	on := DefaultSettings()
	off := on
	off.Enabled = false
	tests := []struct {
		tokens, window int
		s              Settings
		want           bool
	}{
		{200000 - 16384, 200000, on, false},
		{200000 - 16384 + 1, 200000, on, true},
		{250000, 200000, on, true},
		{250000, 200000, off, false},
		{250000, 0, on, false},
	}
	for _, tt := range tests {
		if got := ShouldCompact(tt.tokens, tt.window, tt.s); got != tt.want {
			t.Errorf("ShouldCompact(%d, %d, enabled=%v) = %v, want %v", tt.tokens, tt.window, tt.s.Enabled, got, tt.want)
		}
	}
	if d := DefaultSettings(); d != (Settings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}) {
		t.Errorf("DefaultSettings = %+v", d)
	}
}
