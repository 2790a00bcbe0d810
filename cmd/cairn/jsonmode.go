package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// The JSON print mode writes pi's event stream (pi --mode json): a session
// header, then agent, turn and message events, one JSON object per line.
// Until the agent core lands this covers a single turn without tools.

type sessionHeader struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

type typedEvent struct {
	Type string `json:"type"`
}

type messageEvent struct {
	Type    string       `json:"type"`
	Message core.Message `json:"message"`
}

type assistantEvent struct {
	Type         string                 `json:"type"`
	ContentIndex *int                   `json:"contentIndex,omitempty"`
	Delta        *string                `json:"delta,omitempty"`
	Content      *string                `json:"content,omitempty"`
	ToolCall     *core.Content          `json:"toolCall,omitempty"`
	Partial      *core.AssistantMessage `json:"partial"`
}

type messageUpdate struct {
	Type                  string                 `json:"type"`
	AssistantMessageEvent assistantEvent         `json:"assistantMessageEvent"`
	Message               *core.AssistantMessage `json:"message"`
}

type turnEnd struct {
	Type        string                 `json:"type"`
	Message     *core.AssistantMessage `json:"message"`
	ToolResults []core.Message         `json:"toolResults"`
}

type agentEnd struct {
	Type     string         `json:"type"`
	Messages []core.Message `json:"messages"`
}

// jsonWriter writes one JSON object per line and keeps the first error.
type jsonWriter struct {
	out *bufio.Writer
	enc *json.Encoder
	err error
}

func (w *jsonWriter) write(v any) {
	if w.err != nil {
		return
	}
	if err := w.enc.Encode(v); err != nil {
		w.err = fmt.Errorf("write event: %w", err)
		return
	}
	w.err = w.out.Flush()
}

// streamJSON runs one turn and writes its events as JSON lines.
func streamJSON(ctx context.Context, out *bufio.Writer, s *setup, req *provider.Request, user *core.UserMessage) (*core.AssistantMessage, error) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	w := &jsonWriter{out: out, enc: enc}
	cwd, _ := os.Getwd()
	w.write(sessionHeader{Type: "session", Version: 3, ID: newUUID(), Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Cwd: cwd})
	w.write(typedEvent{"agent_start"})
	w.write(typedEvent{"turn_start"})
	w.write(messageEvent{"message_start", user})
	w.write(messageEvent{"message_end", user})
	emit := func(e provider.Event) {
		switch e.Type {
		case provider.EventStart:
			w.write(messageEvent{"message_start", e.Message})
		case provider.EventUsage, provider.EventDone, provider.EventError:
			// These surface as message_end, as in pi.
		default:
			w.write(messageUpdate{Type: "message_update", AssistantMessageEvent: toAssistantEvent(e), Message: e.Message})
		}
	}
	msg, err := s.prov.Stream(ctx, req, emit)
	w.write(messageEvent{"message_end", msg})
	w.write(turnEnd{Type: "turn_end", Message: msg, ToolResults: []core.Message{}})
	w.write(agentEnd{Type: "agent_end", Messages: []core.Message{user, msg}})
	if err == nil {
		err = w.err
	}
	return msg, err
}

func toAssistantEvent(e provider.Event) assistantEvent {
	idx := e.Index
	ev := assistantEvent{Type: e.Type.String(), ContentIndex: &idx, Partial: e.Message}
	switch e.Type {
	case provider.EventTextDelta, provider.EventThinkingDelta, provider.EventToolCallDelta:
		d := e.Delta
		ev.Delta = &d
	case provider.EventTextEnd:
		c := e.Message.Content[idx].Text
		ev.Content = &c
	case provider.EventThinkingEnd:
		c := e.Message.Content[idx].Thinking
		ev.Content = &c
	case provider.EventToolCallEnd:
		tc := e.Message.Content[idx]
		ev.ToolCall = &tc
	}
	return ev
}

// newUUID returns a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
