package acp

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// markReplay asks a thread's writer to replay msgs (see writer.replay).
type markReplay struct{ msgs []core.Message }

func (markReplay) EventType() string { return "acp_replay" }

// replay sends a conversation's history as session/update notifications,
// in order with the thread's other frames. The thread's writer encodes
// and writes them one at a time (writer.replay): a long history is not
// encoded whole first, waiting in the queue of frames.
func (s *server) replay(t *thread, msgs []core.Message) { t.b.sub.Mark(markReplay{msgs}) }

// replay writes msgs as session/update notifications, each written as it
// is encoded: user text, the agent's text and thinking, and each tool
// call with its final state. A tool result's text is read back from the
// session file (Content.FullText) while its notification is written.
func (w *writer) replay(msgs []core.Message) {
	s, t := w.srv, w.t
	notify := func(t *thread, u any) {
		line, err := json.Marshal(outRequest{JSONRPC: "2.0", Method: "session/update", Params: sessionUpdate{SessionID: t.id, Update: u}})
		if err != nil {
			s.warn("acp: cannot encode a replayed update: %v", err)
			return
		}
		w.write(line)
	}
	// diffs are the edit previews of the calls replayed and not yet
	// answered: a call that succeeded ends showing its diff, as it did
	// live.
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
			status, content := "completed", diffs[m.ToolCallID]
			if m.IsError {
				status = "failed"
			}
			if m.IsError || len(content) == 0 {
				// Read back from the session file only here.
				content = textContent(m.Content)
			}
			delete(diffs, m.ToolCallID)
			notify(t, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: m.ToolCallID, Status: status, Content: content})
		}
	}
}
