package extension

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// observedEvents are the session events a version 2 extension may name at
// initialize, by pi's names, beside those it can answer (events): cairn
// tells them as they happen, as notifications. Nothing waits for their
// handlers, and pi reads no result from them either.
var observedEvents = []string{"agent_start", "turn_start", "message_start", "message_end",
	"tool_execution_start", "tool_execution_end", "model_select", "thinking_level_select", "agent_settled"}

// askedEventsV2 are the events version 2 adds to those cairn asks about:
// pi's context, which may rewrite each request's messages, and its
// before_provider_request and after_provider_response, around each
// request to the model, and its resources_discover, asked at start.
var askedEventsV2 = []string{"context", "before_provider_request", "after_provider_response", "resources_discover"}

// knownEventFor reports whether an extension speaking protocol version v
// may handle the event name.
func knownEventFor(name string, v int) bool {
	return knownEvent(name) || (v >= 2 && (slices.Contains(observedEvents, name) || slices.Contains(askedEventsV2, name)))
}

// Subscriber is a Host whose session events extensions may observe
// (*agent.Session is one): the channel carries every event published
// from the call on, until the returned function stops it.
type Subscriber interface {
	Subscribe() (<-chan core.Event, func())
}

// observer turns session events into pi's observed events, keeping what
// pi's payloads carry beyond the event itself.
type observer struct {
	turn      int
	model     *core.Model
	thinking  core.ThinkingLevel
	now       func() time.Time
	thinkSeen bool
}

// payload is the event's pi name and fields, or ok false when pi has no
// observed event for it.
func (o *observer) payload(ev core.Event) (name string, p map[string]any, ok bool) {
	switch e := ev.(type) {
	case core.AgentStart:
		o.turn = 0
		return "agent_start", map[string]any{}, true
	case core.TurnStart:
		p = map[string]any{"turnIndex": o.turn, "timestamp": o.now().UnixMilli()}
		o.turn++
		return "turn_start", p, true
	case core.MessageStart:
		return "message_start", map[string]any{"message": e.Message}, true
	case core.MessageEnd:
		return "message_end", map[string]any{"message": e.Message}, true
	case core.ToolExecutionStart:
		return "tool_execution_start", map[string]any{"toolCallId": e.ToolCallID, "toolName": e.ToolName, "args": args(e.Args)}, true
	case core.ToolExecutionEnd:
		result := map[string]any{"content": nonNil(e.Result.Content)}
		if len(e.Result.Details) > 0 {
			result["details"] = json.RawMessage(e.Result.Details)
		}
		return "tool_execution_end", map[string]any{"toolCallId": e.ToolCallID, "toolName": e.ToolName, "result": result, "isError": e.Result.IsError}, true
	case core.ModelChanged:
		p = map[string]any{"model": e.Model, "source": "set"}
		if o.model != nil {
			p["previousModel"] = *o.model
		}
		m := e.Model
		o.model = &m
		return "model_select", p, true
	case core.ThinkingLevelChanged:
		p = map[string]any{"level": e.Level}
		if o.thinkSeen {
			p["previousLevel"] = o.thinking
		}
		o.thinking, o.thinkSeen = e.Level, true
		return "thinking_level_select", p, true
	case core.Settled:
		return "agent_settled", map[string]any{}, true
	}
	return "", nil, false
}

// observe forwards the session's events to the extensions that named
// them, until done is closed.
func (m *Manager) observe(events <-chan core.Event, stop func(), done <-chan struct{}) {
	defer m.observing.Done()
	defer stop()
	o := &observer{now: m.opts.Now}
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return
			}
			name, p, ok := o.payload(ev)
			if !ok {
				continue
			}
			p["type"] = name
			for _, e := range m.exts {
				if st, _ := e.snapshot(); st != Ready || !e.handles(name) {
					continue
				}
				e.mu.Lock()
				c := e.conn
				e.mu.Unlock()
				_ = c.notify(MethodEvent, p)
			}
		case <-done:
			return
		}
	}
}
