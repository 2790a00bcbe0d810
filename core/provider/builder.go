package provider

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// Builder assembles an AssistantMessage from wire-level deltas and emits the
// matching events. Every wire format drives one; it keeps the event sequence
// the same whichever provider produced it.
//
// Appending costs amortised O(len(delta)): text grows in a strings.Builder and
// the block's string is re-sliced from it, never copied.
type Builder struct {
	msg     core.AssistantMessage
	emit    func(Event)
	price   core.Price
	blocks  []*blockState
	started bool
	done    bool
}

type blockState struct {
	buf  strings.Builder
	open bool
}

// NewBuilder starts a message for model; emit receives every event.
func NewBuilder(model *core.Model, emit func(Event)) *Builder {
	if emit == nil {
		emit = func(Event) {}
	}
	b := &Builder{emit: emit, price: model.Cost}
	b.msg.API = model.API
	b.msg.Provider = model.Provider
	b.msg.Model = model.ID
	b.msg.Content = make([]core.Content, 0, 4)
	b.msg.Timestamp = time.Now().UnixMilli()
	// pi reports a message that is still streaming as "stop"; hosts expect it.
	b.msg.StopReason = core.StopEnd
	return b
}

// Message returns the message being built. It stays valid and keeps growing.
func (b *Builder) Message() *core.AssistantMessage { return &b.msg }

// SetModelID records the model id the server says answered, as the
// message's ResponseModel when it differs from the one asked for (routers,
// aliases, dated snapshots); Model stays the one asked for, as in pi.
func (b *Builder) SetModelID(id string) {
	if id != "" && id != b.msg.Model {
		b.msg.ResponseModel = id
	}
}

// SetResponseID records the provider's id for this response.
func (b *Builder) SetResponseID(id string) {
	if id != "" {
		b.msg.ResponseID = id
	}
}

// SetRawStopReason records the provider's own stop or finish reason, as the
// wire spells it, when the wire gives it; Finish and Fail keep it.
func (b *Builder) SetRawStopReason(reason string) {
	if reason != "" {
		b.msg.RawStopReason = reason
	}
}

// Started reports whether EventStart has been emitted.
func (b *Builder) Started() bool { return b.started }

// Start emits EventStart once; every other method but Fail calls it first.
func (b *Builder) Start() {
	if b.started {
		return
	}
	b.started = true
	b.emit(Event{Type: EventStart, Message: &b.msg})
}

func (b *Builder) begin(c core.Content, ev EventType) int {
	b.Start()
	b.msg.Content = append(b.msg.Content, c)
	b.blocks = append(b.blocks, &blockState{open: true})
	i := len(b.msg.Content) - 1
	b.emit(Event{Type: ev, Index: i, Message: &b.msg})
	return i
}

// BeginText opens a text block and returns its index.
func (b *Builder) BeginText() int {
	return b.begin(core.Content{Type: core.ContentText}, EventTextStart)
}

// BeginThinking opens a thinking block and returns its index.
func (b *Builder) BeginThinking() int {
	return b.begin(core.Content{Type: core.ContentThinking}, EventThinkingStart)
}

// BeginToolCall opens a tool call block and returns its index.
func (b *Builder) BeginToolCall(id, name string) int {
	return b.begin(core.Content{Type: core.ContentToolCall, ID: id, Name: name}, EventToolCallStart)
}

// IsOpen reports whether block i exists and has not ended.
func (b *Builder) IsOpen(i int) bool {
	return i >= 0 && i < len(b.blocks) && b.blocks[i].open
}

// Append adds a fragment to open block i: text, thinking or tool arguments
// according to the block's type. Empty fragments and closed blocks are
// ignored, so a stray delta from the wire cannot corrupt the message.
func (b *Builder) Append(i int, delta string) {
	if delta == "" {
		return
	}
	b.appendDelta(i, delta)
}

// AnnounceToolCall adds the first fragment of tool call i's arguments and
// emits its delta event even when the fragment is empty, as pi's Chat
// Completions provider announces every call right after its start.
func (b *Builder) AnnounceToolCall(i int, delta string) {
	if b.IsOpen(i) && b.msg.Content[i].Type == core.ContentToolCall {
		b.appendDelta(i, delta)
	}
}

func (b *Builder) appendDelta(i int, delta string) {
	if !b.IsOpen(i) {
		return
	}
	st := b.blocks[i]
	st.buf.WriteString(delta)
	c := &b.msg.Content[i]
	var ev EventType
	switch c.Type {
	case core.ContentText:
		c.Text = st.buf.String()
		ev = EventTextDelta
	case core.ContentThinking:
		c.Thinking = st.buf.String()
		ev = EventThinkingDelta
	case core.ContentToolCall:
		ev = EventToolCallDelta
	default:
		return
	}
	b.emit(Event{Type: ev, Index: i, Delta: delta, Message: &b.msg})
}

// PartialArguments returns the raw argument text streamed so far for tool
// call i.
func (b *Builder) PartialArguments(i int) string {
	if i < 0 || i >= len(b.blocks) {
		return ""
	}
	return b.blocks[i].buf.String()
}

// Block gives direct access to block i so a wire format can set signatures,
// ids or names that arrive after the block opened.
func (b *Builder) Block(i int) *core.Content {
	if i < 0 || i >= len(b.msg.Content) {
		return nil
	}
	return &b.msg.Content[i]
}

// End closes block i and emits its end event. Tool call arguments are parsed
// here: they are stored compacted, in the model's key order; arguments that
// are empty or not a JSON object become {}.
func (b *Builder) End(i int) {
	if b.close(i) {
		b.emit(Event{Type: b.endEvent(i), Index: i, Message: &b.msg})
	}
}

// endEvent is the event that ends block i.
func (b *Builder) endEvent(i int) EventType {
	switch b.msg.Content[i].Type {
	case core.ContentThinking:
		return EventThinkingEnd
	case core.ContentToolCall:
		return EventToolCallEnd
	}
	return EventTextEnd
}

// close closes block i without emitting anything, parsing a tool call's
// arguments, and reports whether it was open.
func (b *Builder) close(i int) bool {
	if !b.IsOpen(i) {
		return false
	}
	st := b.blocks[i]
	st.open = false
	c := &b.msg.Content[i]
	if c.Type == core.ContentToolCall {
		var ok bool
		if c.Arguments, ok = parseArguments(st.buf.String()); !ok {
			c.InvalidArguments = st.buf.String()
		}
	}
	st.buf = strings.Builder{}
	return true
}

// parseArguments turns streamed argument text into a compact JSON object,
// mended as repairArguments says. No text is an empty object; text that is
// not (and cannot be mended into) one JSON object gives {} and ok false.
func parseArguments(raw string) (args json.RawMessage, ok bool) {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		return json.RawMessage(`{}`), true
	}
	if trimmed[0] != '{' {
		return json.RawMessage(`{}`), false
	}
	// pi mends a call whose JSON lacks its closing brace, or has a raw
	// newline in a string; so does cairn (see repairArguments).
	mended, ok := repairArguments(trimmed)
	var out bytes.Buffer
	out.Grow(len(mended))
	if !ok || json.Compact(&out, []byte(mended)) != nil || out.Bytes()[0] != '{' {
		return json.RawMessage(`{}`), false
	}
	return out.Bytes(), true
}

// EndAll closes every open block in index order.
func (b *Builder) EndAll() {
	for i := range b.blocks {
		b.End(i)
	}
}

// SetUsage records token counts (prices them with the model's cost) and
// emits EventUsage. Providers call it whenever the wire reports usage; the
// last call wins.
func (b *Builder) SetUsage(u core.Usage) {
	// Counts known before the answer starts (Anthropic's message_start)
	// are part of the message as it starts.
	b.msg.Usage = u.Priced(b.price)
	b.Start()
	b.emit(Event{Type: EventUsage, Message: &b.msg})
}

// Usage returns the usage recorded so far, for wire formats that report it
// piecemeal.
func (b *Builder) Usage() core.Usage { return b.msg.Usage }

// Finish closes open blocks, sets the stop reason and emits EventDone. A
// message that asked for tools stops with StopToolUse whatever the wire said,
// since several servers report "stop" after tool calls.
func (b *Builder) Finish(reason core.StopReason) *core.AssistantMessage {
	if b.done {
		return &b.msg
	}
	b.Start()
	b.EndAll()
	if reason == core.StopEnd && b.hasToolCalls() {
		reason = core.StopToolUse
	}
	b.done = true
	b.msg.StopReason = reason
	b.emit(Event{Type: EventDone, Reason: reason, Message: &b.msg})
	return &b.msg
}

func (b *Builder) hasToolCalls() bool {
	for _, c := range b.msg.Content {
		if c.Type == core.ContentToolCall {
			return true
		}
	}
	return false
}

// Fail ends the message with an error (or as aborted), keeping everything
// received so far, and emits EventError. Open blocks are closed so the
// message is complete and can be stored and replayed. As in pi 0.87.1, an
// aborted message emits its blocks' end events first (the stream stopped
// reading, then ended what it had); one that failed (StopError) emits none,
// for the error cut the stream mid-block. A message that had not started
// (the request failed before its answer began) emits EventError alone, as
// pi 0.87.1 starts an answer only once the server has accepted the request.
func (b *Builder) Fail(reason core.StopReason, err error) *core.AssistantMessage {
	if b.done {
		return &b.msg
	}
	if reason == core.StopAborted {
		b.EndAll()
	} else {
		for i := range b.blocks {
			b.close(i)
		}
	}
	b.done = true
	b.msg.StopReason = reason
	if err != nil {
		b.msg.ErrorMessage = err.Error()
	}
	b.emit(Event{Type: EventError, Reason: reason, Message: &b.msg})
	return &b.msg
}

// Done reports whether Finish or Fail has been called.
func (b *Builder) Done() bool { return b.done }
