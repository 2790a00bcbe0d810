package provider

import "github.com/cairn-dev/cairn/core"

// EventType names a step in a streamed answer. The names match pi's
// AssistantMessageEvent types.
type EventType uint8

// The event types, in the order they can occur for one block.
const (
	EventStart EventType = iota
	EventTextStart
	EventTextDelta
	EventTextEnd
	EventThinkingStart
	EventThinkingDelta
	EventThinkingEnd
	EventToolCallStart
	EventToolCallDelta
	EventToolCallEnd
	EventUsage
	EventDone
	EventError
)

var eventNames = [...]string{
	EventStart:         "start",
	EventTextStart:     "text_start",
	EventTextDelta:     "text_delta",
	EventTextEnd:       "text_end",
	EventThinkingStart: "thinking_start",
	EventThinkingDelta: "thinking_delta",
	EventThinkingEnd:   "thinking_end",
	EventToolCallStart: "toolcall_start",
	EventToolCallDelta: "toolcall_delta",
	EventToolCallEnd:   "toolcall_end",
	EventUsage:         "usage",
	EventDone:          "done",
	EventError:         "error",
}

// String returns pi's name for the event type.
func (t EventType) String() string {
	if int(t) < len(eventNames) {
		return eventNames[t]
	}
	return "unknown"
}

// Event is one step of a streamed answer.
//
// Message is the answer so far. It is the same value for every event of one
// stream and keeps growing; a subscriber that needs a snapshot must copy it
// before the next event. Index is the content block the event is about
// (Message.Content[Index]). Delta is the new text, thinking or argument
// fragment for the *Delta events. Reason is set on EventDone and EventError.
type Event struct {
	Type    EventType
	Index   int
	Delta   string
	Reason  core.StopReason
	Message *core.AssistantMessage
}

// Block returns the content block the event is about, or nil for events that
// are about the whole message.
func (e Event) Block() *core.Content {
	switch e.Type {
	case EventStart, EventUsage, EventDone, EventError:
		return nil
	}
	if e.Index < 0 || e.Index >= len(e.Message.Content) {
		return nil
	}
	return &e.Message.Content[e.Index]
}
