package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/redact"
)

// streamEvent is the union of the Messages stream's event payloads. One
// value is reused for every event; fields a payload lacks stay zero.
type streamEvent struct {
	Type         string       `json:"type"`
	Index        int          `json:"index"`
	Message      eventMessage `json:"message"`
	ContentBlock eventBlock   `json:"content_block"`
	Delta        eventDelta   `json:"delta"`
	Usage        *eventUsage  `json:"usage"`
	Error        eventError   `json:"error"`
}

type eventMessage struct {
	ID    string      `json:"id"`
	Model string      `json:"model"`
	Usage *eventUsage `json:"usage"`
}

type eventBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	Input     json.RawMessage `json:"input"`
}

// eventDelta holds a content_block_delta's delta and a message_delta's
// delta (which carries the stop reason).
type eventDelta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Thinking    string `json:"thinking"`
	PartialJSON string `json:"partial_json"`
	Signature   string `json:"signature"`
	StopReason  string `json:"stop_reason"`
}

// eventUsage counts are pointers because message_delta repeats only some of
// them (proxies often send just output_tokens); an absent count keeps the
// value message_start gave.
type eventUsage struct {
	InputTokens         *int `json:"input_tokens"`
	OutputTokens        *int `json:"output_tokens"`
	CacheReadTokens     *int `json:"cache_read_input_tokens"`
	CacheCreationTokens *int `json:"cache_creation_input_tokens"`
	CacheCreation       *struct {
		OneHour *int `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	OutputTokensDetails *struct {
		ThinkingTokens *int `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}

type eventError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// errIncomplete is returned when the body ends before message_stop.
var errIncomplete = errors.New("stream ended before the response was complete")

// decoder turns one response's events into Builder calls.
type decoder struct {
	b      *provider.Builder
	name   string
	apiKey string
	ev     streamEvent
	scan   jsonscan.Scanner // reused for every content_block_delta
	// blocks maps the wire's block index to the Builder's; skipped block
	// types (server tools and their results) map to -1.
	blocks map[int]openBlock
	usage  core.Usage
	stop   string
}

// openBlock is what the decoder remembers about an open wire block.
type openBlock struct {
	index int
	// input is a tool_use block's input as given at its start, used when
	// no input_json_delta follows (some compatible servers send it whole).
	input    json.RawMessage
	streamed bool
}

// readStream decodes an SSE body into b until message_stop and returns what
// Stream returns.
func readStream(ctx context.Context, body io.Reader, b *provider.Builder, name, apiKey string) (*core.AssistantMessage, error) {
	d := &decoder{b: b, name: name, apiKey: apiKey, blocks: make(map[int]openBlock, 4)}
	sse := provider.NewSSEDecoder(body)
	for {
		ev, err := sse.Next()
		if err == io.EOF {
			return provider.Fail(ctx, b, &provider.Error{Provider: name, Message: errIncomplete.Error(), Retryable: true, Err: errIncomplete})
		}
		if err != nil {
			return provider.Fail(ctx, b, provider.StreamError(ctx, name, err))
		}
		done, err := d.handle(ev.Event, ev.Data)
		if err != nil {
			return provider.Fail(ctx, b, err)
		}
		if done {
			return d.finish(ctx)
		}
	}
}

// handle applies one event and reports whether it was message_stop.
func (d *decoder) handle(name string, data []byte) (bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		// Some proxies send empty events to keep the connection alive.
		return false, nil
	}
	ev := &d.ev
	*ev = streamEvent{}
	if (name == "content_block_delta" || name == "") && scanDelta(&d.scan, data, ev) {
		d.delta()
		return false, nil
	}
	*ev = streamEvent{}
	if err := json.Unmarshal(data, ev); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) || d.interprets(name) {
			return false, &provider.Error{Provider: d.name, Message: "malformed " + eventName(name, ev) + " event: " + err.Error(), Err: err}
		}
		// A field we do not read has a shape we did not expect, in an
		// event or block type we skip anyway.
		return false, nil
	}
	switch eventName(name, ev) {
	case "message_start":
		if ev.Message.ID != "" && !d.b.Started() {
			d.b.SetResponseID(ev.Message.ID)
		}
		d.b.SetModelID(ev.Message.Model)
		d.mergeUsage(ev.Message.Usage)
	case "content_block_start":
		d.startBlock()
	case "content_block_delta":
		d.delta()
	case "content_block_stop":
		d.stopBlock()
	case "message_delta":
		if ev.Delta.StopReason != "" {
			d.stop = ev.Delta.StopReason
			d.b.SetRawStopReason(d.stop)
		}
		d.mergeUsage(ev.Usage)
	case "message_stop":
		return true, nil
	case "error":
		return false, d.streamError()
	}
	// ping and event types added after this was written are ignored.
	return false, nil
}

// eventName is the event's type: its JSON type, or the SSE event name for
// a payload that lacks one.
func eventName(sseName string, ev *streamEvent) string {
	if ev.Type != "" {
		return ev.Type
	}
	return sseName
}

// interprets reports whether the decoder reads the fields of the event
// just decoded, so that a type mismatch in it is a real protocol error.
func (d *decoder) interprets(sseName string) bool {
	ev := &d.ev
	switch eventName(sseName, ev) {
	case "message_start", "message_delta", "content_block_stop", "error":
		return true
	case "content_block_start":
		switch ev.ContentBlock.Type {
		case "text", "thinking", "redacted_thinking", "tool_use":
			return true
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta", "thinking_delta", "signature_delta", "input_json_delta":
			return true
		}
	}
	return false
}

func (d *decoder) startBlock() {
	ev := &d.ev
	cb := &ev.ContentBlock
	// The API streams blocks one after another, so a new block means any
	// open one is finished; a stream that says otherwise is garbled, and
	// late deltas for the old block are dropped rather than misplaced.
	for i := range d.blocks {
		d.closeBlock(i)
	}
	var st openBlock
	switch cb.Type {
	case "text":
		st.index = d.b.BeginText()
		d.b.Append(st.index, cb.Text)
	case "thinking":
		st.index = d.b.BeginThinking()
		d.b.Append(st.index, cb.Thinking)
		d.b.Block(st.index).ThinkingSignature = cb.Signature
	case "redacted_thinking":
		st.index = d.b.BeginThinking()
		c := d.b.Block(st.index)
		c.Redacted = true
		c.ThinkingSignature = cb.Data
	case "tool_use":
		st.index = d.b.BeginToolCall(cb.ID, cb.Name)
		st.input = cb.Input
	default:
		st.index = -1
	}
	d.blocks[ev.Index] = st
}

func (d *decoder) delta() {
	ev := &d.ev
	st, ok := d.blocks[ev.Index]
	if !ok || st.index < 0 {
		return
	}
	switch ev.Delta.Type {
	case "text_delta":
		d.b.Append(st.index, ev.Delta.Text)
	case "thinking_delta":
		d.b.Append(st.index, ev.Delta.Thinking)
	case "signature_delta":
		if d.b.IsOpen(st.index) {
			if c := d.b.Block(st.index); c.Type == core.ContentThinking {
				c.ThinkingSignature += ev.Delta.Signature
			}
		}
	case "input_json_delta":
		if ev.Delta.PartialJSON != "" && !st.streamed {
			st.streamed = true
			d.blocks[ev.Index] = st
		}
		d.b.Append(st.index, ev.Delta.PartialJSON)
	}
}

func (d *decoder) stopBlock() {
	d.closeBlock(d.ev.Index)
}

// closeBlock ends the block the wire numbers i, if it is open.
func (d *decoder) closeBlock(i int) {
	st, ok := d.blocks[i]
	if !ok {
		return
	}
	delete(d.blocks, i)
	if st.index < 0 {
		return
	}
	if !st.streamed && hasInput(st.input) {
		d.b.Append(st.index, string(st.input))
	}
	d.b.End(st.index)
}

// hasInput reports whether a tool_use block's initial input holds
// arguments; the API itself always starts with an empty object.
func hasInput(input json.RawMessage) bool {
	switch string(bytes.TrimSpace(input)) {
	case "", "{}", "null":
		return false
	}
	return true
}

// mergeUsage folds the counts present in u into the running usage.
// Anthropic's input_tokens already excludes cached tokens, as core.Usage
// wants.
func (d *decoder) mergeUsage(u *eventUsage) {
	if u == nil {
		return
	}
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&d.usage.Input, u.InputTokens)
	set(&d.usage.Output, u.OutputTokens)
	set(&d.usage.CacheRead, u.CacheReadTokens)
	set(&d.usage.CacheWrite, u.CacheCreationTokens)
	// pi 0.87 records the one-hour cache writes from the start, 0 when
	// not reported. A new int each time: messages already sent hold the
	// old one.
	if u.CacheCreation != nil && u.CacheCreation.OneHour != nil {
		oneHour := *u.CacheCreation.OneHour
		d.usage.CacheWrite1h = &oneHour
	} else if d.usage.CacheWrite1h == nil {
		zero := 0
		d.usage.CacheWrite1h = &zero
	}
	if det := u.OutputTokensDetails; det != nil && det.ThinkingTokens != nil {
		thinking := *det.ThinkingTokens
		d.usage.Reasoning = &thinking
	}
	d.b.SetUsage(d.usage)
}

// streamError converts an in-stream error event.
func (d *decoder) streamError() *provider.Error {
	e := d.ev.Error
	perr := &provider.Error{
		Provider:  d.name,
		Code:      e.Type,
		Message:   redact.Secrets(e.Message, d.apiKey),
		Retryable: retryableType(e.Type),
		Hint:      provider.StatusHint(typeStatus(e.Type), keyEnv(d.name)),
	}
	if perr.Code == "" && perr.Message == "" {
		perr.Message = "the server reported an error without details"
		perr.Retryable = true
	}
	return perr
}

// finish ends the message after message_stop with the mapped stop reason.
func (d *decoder) finish(ctx context.Context) (*core.AssistantMessage, error) {
	reason, err := d.stopReason()
	if err != nil {
		return provider.Fail(ctx, d.b, err)
	}
	return d.b.Finish(reason), nil
}

// stopReason maps Anthropic's stop_reason. A refusal is an error so the
// agent does not carry on as if the model had answered.
func (d *decoder) stopReason() (core.StopReason, error) {
	switch d.stop {
	case "max_tokens", "model_context_window_exceeded":
		return core.StopLength, nil
	case "tool_use":
		return core.StopToolUse, nil
	case "refusal":
		return "", &provider.Error{
			Provider: d.name,
			Code:     "refusal",
			Message:  "the model refused to continue this conversation",
			Hint:     "Rephrase the request, or start a new conversation or switch models if the refusal repeats",
		}
	}
	// end_turn, stop_sequence, pause_turn (the agent may simply resubmit)
	// and reasons added after this was written.
	return core.StopEnd, nil
}
