package acp

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// replay sends a conversation's history as session/update notifications:
// user text, the agent's text and thinking, and each tool call with its
// final state.
func (s *server) replay(t *thread, msgs []core.Message) {
	// diffs are the edit previews of the calls replayed so far: a call
	// that succeeded ends showing its diff, as it did live.
	diffs := map[string][]toolContent{}
	for _, m := range msgs {
		switch m := m.(type) {
		case *core.UserMessage:
			for _, c := range m.Content {
				if c.Type == core.ContentText && c.Text != "" {
					notify(t, contentChunk{SessionUpdate: "user_message_chunk", Content: textBlock{Type: "text", Text: c.Text}})
				}
			}
		case *core.AssistantMessage:
			for _, c := range m.Content {
				switch c.Type {
				case core.ContentText:
					if c.Text != "" {
						notify(t, contentChunk{SessionUpdate: "agent_message_chunk", Content: textBlock{Type: "text", Text: c.Text}})
					}
				case core.ContentThinking:
					if c.Thinking != "" {
						notify(t, contentChunk{SessionUpdate: "agent_thought_chunk", Content: textBlock{Type: "text", Text: c.Thinking}})
					}
				case core.ContentToolCall:
					if isPlanTool(c.Name) {
						// The plan is shown as the plan, once.
						continue
					}
					call, title, locs := s.describe(t.b, c.Name, c.Arguments, false)
					diffs[c.ID] = call.diffs
					var raw json.RawMessage
					if json.Valid(c.Arguments) {
						raw = c.Arguments
					}
					notify(t, toolCallStart{SessionUpdate: "tool_call", ToolCallID: c.ID, Title: title, Kind: call.kind,
						Status: "pending", Content: call.diffs, Locations: locs, RawInput: raw})
				}
			}
		case *core.ToolResultMessage:
			if p, ok := planOf(m.ToolName, m.IsError, m.Details); ok {
				notify(t, p)
			}
			if isPlanTool(m.ToolName) {
				if m.IsError {
					notify(t, failedPlan(m.ToolCallID, m.Content))
				}
				continue
			}
			status, content := "completed", textContent(m.Content)
			if m.IsError {
				status = "failed"
			} else if d := diffs[m.ToolCallID]; len(d) > 0 {
				content = d
			}
			notify(t, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: m.ToolCallID, Status: status, Content: content})
		}
	}
}
