package synaps

import (
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// translate turns one session event (or one of the server's marks) into
// the frames it is written as. It runs on the writer goroutine.
func (s *server) translate(ev core.Event) [][]byte {
	switch e := ev.(type) {
	case lineMark:
		return [][]byte{e.line}
	case core.MessageUpdate:
		if f := messageUpdate(e); f != nil {
			return [][]byte{f}
		}
	case core.ToolExecutionEnd:
		result := resultText(e.Result)
		return [][]byte{updateFrame(assistantEvent{Type: "toolcall_result", ToolID: e.ToolCallID, Result: &result})}
	case core.ToolExecutionUpdate:
		if f := subagentFrame(e); f != nil {
			return [][]byte{f}
		}
	case core.MessageEnd:
		switch m := e.Message.(type) {
		case *core.AssistantMessage:
			s.countAssistant(m)
		case *core.ToolResultMessage:
			s.countToolResult(m)
		}
	case core.Settled:
		return s.endTurn(e)
	}
	return nil
}

// messageUpdate is the message_update frame of a streaming step, or nil
// for the steps synaps does not report (a block opening or closing).
func messageUpdate(e core.MessageUpdate) []byte {
	delta := e.Delta
	switch e.Kind {
	case core.UpdateTextDelta:
		return updateFrame(assistantEvent{Type: "text_delta", Delta: &delta})
	case core.UpdateThinkingDelta:
		return updateFrame(assistantEvent{Type: "thinking_delta", Delta: &delta})
	}
	call, ok := toolCall(e)
	if !ok {
		return nil
	}
	switch e.Kind {
	case core.UpdateToolCallStart:
		return updateFrame(assistantEvent{Type: "toolcall_start", ToolID: call.ID, ToolName: call.Name})
	case core.UpdateToolCallDelta:
		return updateFrame(assistantEvent{Type: "toolcall_input_delta", ToolID: call.ID, Delta: &delta})
	case core.UpdateToolCallEnd:
		input := call.Arguments
		if !json.Valid(input) {
			input = json.RawMessage(`{}`)
		}
		return updateFrame(assistantEvent{Type: "toolcall_input", ToolID: call.ID, Input: input})
	}
	return nil
}

// toolCall is the tool call block a tool call update is about.
func toolCall(e core.MessageUpdate) (core.Content, bool) {
	if e.Message == nil || e.Index < 0 || e.Index >= len(e.Message.Content) {
		return core.Content{}, false
	}
	c := e.Message.Content[e.Index]
	return c, c.Type == core.ContentToolCall
}

// resultText is a tool result as synaps carries it: one string.
func resultText(r core.ToolResult) string {
	var b strings.Builder
	for i, c := range r.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		switch c.Type {
		case core.ContentText:
			b.WriteString(c.FullText())
		case core.ContentImage:
			b.WriteString("[image: " + c.MimeType + "]")
		}
	}
	return b.String()
}

// countAssistant adds an assistant message's usage to the turn in flight.
func (s *server) countAssistant(m *core.AssistantMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.turn
	if t == nil {
		return
	}
	t.usage = t.usage.Add(m.Usage)
	t.model = m.Model
	if m.ResponseModel != "" {
		t.model = m.ResponseModel
	}
	t.lastStop = m.StopReason
}

// finished reports whether the turn ran to its natural end (the model's
// last answer was final and nothing failed) although an abort was asked
// for: it came too late to cancel anything.
func (t *turn) finished(e core.Settled) bool {
	return e.Error == "" && (t.lastStop == core.StopEnd || t.lastStop == core.StopLength)
}

// endTurn writes the end of the prompt in flight: agent_end and the
// prompt's response, preceded by error{id} when the turn failed and
// followed by the responses of the aborts that stopped it.
func (s *server) endTurn(e core.Settled) [][]byte {
	s.mu.Lock()
	t := s.turn
	s.turn = nil
	s.mu.Unlock()
	if t == nil {
		return nil
	}
	id := t.id
	end := agentEndFrame(usageOf(t.usage, t.model))
	var frames [][]byte
	switch {
	case t.cancelled && !t.finished(e):
		frames = append(frames, end, responseFrame(&id, t.command, body{"ok": true, "cancelled": true}))
	case e.Error != "":
		frames = append(frames, errorFrame(&id, e.Error), end,
			responseFrame(&id, t.command, body{"ok": false, "error": e.Error, "outcome": "error"}))
	default:
		frames = append(frames, end, responseFrame(&id, t.command, body{"ok": true}))
	}
	for _, a := range t.aborts {
		frames = append(frames, responseFrame(&a, "abort", body{"ok": true}))
	}
	return frames
}
