package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestLargeResultIsHeldAsWritten: once a large tool result is written to
// the session file, the conversation and the message_end, turn_end and
// agent_end events hold the file's copy (its text read back when needed),
// not the tool's string, so a long session's memory does not grow with its
// outputs (a run of many turns once held every output until it ended).
func TestLargeResultIsHeldAsWritten(t *testing.T) {
	output := strings.Repeat("--- PASS: TestCase \"ok\"\n", 2000)
	tool := &fakeTool{name: "bash", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		return core.TextResult(output), nil
	}}
	store := session.Store{Dir: t.TempDir()}
	file := store.Create("/p")
	t.Cleanup(func() { file.Close() })
	f := newFixture(t, Config{Tools: []core.Tool{tool}, Conversations: NewFileConversations(store, "/p", file)},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"go test"}`)}},
		faux.Response{Text: "all pass"})
	if err := f.s.Prompt("test it", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	var ended, turnEnd, agentEnd *core.ToolResultMessage
	for _, e := range f.untilSettled() {
		switch e := e.(type) {
		case core.MessageEnd:
			if tr, ok := e.Message.(*core.ToolResultMessage); ok {
				ended = tr
			}
		case core.TurnEnd:
			if len(e.ToolResults) > 0 {
				turnEnd = e.ToolResults[0]
			}
		case core.AgentEnd:
			for _, m := range e.Messages {
				if tr, ok := m.(*core.ToolResultMessage); ok {
					agentEnd = tr
				}
			}
		}
	}
	var held *core.ToolResultMessage
	for _, m := range f.s.Messages() {
		if tr, ok := m.(*core.ToolResultMessage); ok {
			held = tr
		}
	}
	for name, tr := range map[string]*core.ToolResultMessage{"message_end": ended, "turn_end": turnEnd, "agent_end": agentEnd, "the conversation": held} {
		if tr == nil || tr.Content[0].Stored == nil || tr.Content[0].Text != "" {
			t.Fatalf("%s holds the result in memory (%v)", name, tr != nil)
		}
		if got := tr.Content[0].FullText(); got != output {
			t.Fatalf("%s reads back %d bytes, want %d", name, len(got), len(output))
		}
	}
}
