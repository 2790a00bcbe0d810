package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/redact"
)

// maxJSONResponse bounds a non-streamed reply read into memory.
const maxJSONResponse = 32 << 20

// errIncomplete is what a stream that stops without saying it finished
// becomes: the connection or a proxy gave up, and asking again may work.
var errIncomplete = errors.New("stream ended before the response was complete")

// decoder turns Chat Completions chunks into builder calls. One decoder
// serves one response.
//
// Every block stays open until the stream ends, and the builder then ends
// them in content order, as pi's openai-completions provider does (text_start,
// text_delta, toolcall_start, toolcall_delta…, text_end, toolcall_end). Text
// or thinking that arrives after a block of another kind opens a new block,
// so the content keeps the order the model wrote it in; tool call fragments
// find their call by index or id, whichever calls came between.
type decoder struct {
	b        *provider.Builder
	provider string
	apiKey   string

	text     int // the text block new text joins, or -1 for a new one
	thinking int // the thinking block new thinking joins, or -1 for a new one
	calls    []toolSlot
	// details holds OpenRouter encrypted reasoning that named a tool call
	// before the call itself arrived.
	details map[string]string

	// dec and feed decode every event with one json.Decoder, which keeps
	// its scratch space between values where json.Unmarshal would allocate
	// it afresh for each delta.
	dec  *json.Decoder
	feed eventReader
	fed  int64 // bytes handed to dec so far

	finish    string
	finished  bool // a finish_reason was seen
	done      bool // data: [DONE] was seen
	usageSeen bool
	// reasoningApart: the server counts reasoning tokens outside
	// completion_tokens (xAI).
	reasoningApart bool
	chunk          chunk // reused for every event so decoding a delta allocates little
}

// toolSlot maps a streamed tool call (by its wire index, or by id when a
// server leaves the index out) to its builder block.
type toolSlot struct {
	index optionalInt
	id    string
	block int
}

func newDecoder(b *provider.Builder, providerName, apiKey string) *decoder {
	return &decoder{b: b, provider: providerName, apiKey: apiKey, text: -1, thinking: -1}
}

var doneMarker = []byte("[DONE]")

var errTrailingData = errors.New("unexpected data after the JSON value")

// decode decodes one event's data, which must be exactly one JSON value.
func (d *decoder) decode(data []byte, v any) error {
	if d.dec == nil {
		d.dec = json.NewDecoder(&d.feed)
	}
	d.feed.data = data
	d.fed += int64(len(data))
	if err := d.dec.Decode(v); err != nil {
		return err
	}
	// Whatever the decoder has not consumed is the tail of this event (the
	// previous events' tails were checked to be blank), and must be blank.
	unread := d.fed - d.dec.InputOffset()
	if unread > int64(len(data)) || len(bytes.TrimSpace(data[int64(len(data))-unread:])) > 0 {
		return errTrailingData
	}
	return nil
}

// eventReader hands the decoder one event's data at a time; io.EOF marks
// the end of the event, not of the stream.
type eventReader struct {
	data []byte
}

func (r *eventReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// run reads the event stream to its end. It returns nil when the server
// finished properly (a finish_reason or [DONE]), errIncomplete-based errors
// when the stream just stopped, and typed errors for everything else.
func (d *decoder) run(body io.Reader) error {
	sse := provider.NewSSEDecoder(body)
	for {
		ev, err := sse.Next()
		switch {
		case err == io.EOF && !d.finished && !d.done:
			return d.incomplete()
		case err != nil && d.finished:
			// The answer is complete; only the usage chunk or [DONE] was
			// lost, and failing now would make the caller pay for it twice.
			return nil
		case err != nil:
			return err
		}
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		if bytes.Equal(data, doneMarker) {
			d.done = true
			return nil
		}
		if ev.Event == "error" {
			return d.eventError(data)
		}
		if err := d.handle(data); err != nil {
			return err
		}
	}
}

func (d *decoder) incomplete() error {
	return &provider.Error{Provider: d.provider, Message: errIncomplete.Error(), Retryable: true, Err: errIncomplete}
}

// startsLikeJSON reports whether a successful response is one JSON value
// rather than an event stream, judging by its first byte: servers that
// ignore stream:true, or fail with a 200, do not always say so in
// Content-Type. Leading blanks are consumed.
func startsLikeJSON(r *bufio.Reader) bool {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return false
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		_ = r.UnreadByte()
		return c == '{' || c == '['
	}
}

// whole handles a server that ignored stream:true and answered with one
// JSON object: a chat.completion or an error envelope.
func (d *decoder) whole(body io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(body, maxJSONResponse))
	if err != nil {
		return err
	}
	data = bytes.TrimSpace(data)
	if w := parseErrorBody(data); w != nil {
		return d.streamError(w)
	}
	if err := d.handle(data); err != nil {
		return err
	}
	if !d.finished {
		return d.incomplete()
	}
	return nil
}

// eventError decodes the payload of an "event: error" line, which may or
// may not be wrapped in an error envelope.
func (d *decoder) eventError(data []byte) error {
	var env struct {
		Error *wireError `json:"error"`
	}
	if json.Unmarshal(data, &env) == nil && env.Error != nil {
		return d.streamError(env.Error)
	}
	var bare wireError
	if err := json.Unmarshal(data, &bare); err != nil || (bare.Message == "" && bare.Code == "" && bare.Type == "") {
		bare = wireError{Message: string(data)}
	}
	return d.streamError(&bare)
}

// handle applies one chunk.
func (d *decoder) handle(data []byte) error {
	c := &d.chunk
	*c = chunk{}
	if err := d.decode(data, c); err != nil {
		return &provider.Error{Provider: d.provider, Message: "malformed event from the server: " + err.Error(), Err: err}
	}
	if c.Error != nil {
		return d.streamError(c.Error)
	}
	if c.ID != "" && !d.b.Started() {
		// The answer starts with its response id, as pi's message_start.
		d.b.SetResponseID(c.ID)
	}
	d.b.SetModelID(c.Model)
	d.b.Start()
	ch := &c.Choices[0]
	switch {
	case c.Usage != nil:
		d.setUsage(c.Usage)
	case c.XGroq != nil && c.XGroq.Usage != nil:
		d.setUsage(c.XGroq.Usage)
	case ch.Usage != nil:
		d.setUsage(ch.Usage)
	}
	dl := &ch.Delta
	if ch.Message != nil {
		dl = ch.Message
	}
	d.reasoning(dl)
	if dl.Refusal != "" {
		// A refusal is the answer the person sees, not an empty one.
		dl.Content.Text += dl.Refusal
	}
	if dl.Content.Text != "" {
		if d.text < 0 {
			d.text = d.b.BeginText()
			d.thinking = -1
		}
		d.b.Append(d.text, dl.Content.Text)
	}
	for i := range dl.ToolCalls {
		d.toolCall(&dl.ToolCalls[i])
	}
	if len(dl.ReasoningDetails) > 0 {
		d.encryptedDetails(dl.ReasoningDetails)
	}
	if ch.FinishReason != "" {
		d.finish = ch.FinishReason
		d.b.SetRawStopReason(d.finish)
		d.finished = true
	}
	return nil
}

// reasoning appends the delta's thinking. Servers name the field
// differently and some send the same text twice (OpenRouter in reasoning
// and in reasoning_details, chutes.ai in two fields), so only the first
// field present counts, and the details array only when no field is.
func (d *decoder) reasoning(dl *delta) {
	field, text := "reasoning_content", dl.ReasoningContent
	if text == "" {
		field, text = "reasoning", dl.Reasoning
	}
	if text == "" {
		field, text = "reasoning_text", dl.ReasoningText
	}
	if text == "" {
		// Mistral's thinking parts inside the content array.
		field, text = "content", dl.Content.Thinking
	}
	if text == "" && len(dl.ReasoningDetails) > 0 {
		field, text = "reasoning", detailsText(dl.ReasoningDetails)
	}
	if text == "" {
		return
	}
	if d.thinking < 0 {
		d.thinking = d.b.BeginThinking()
		d.text = -1
		// The signature records which field the thinking came in, so a
		// replay can send it back in the same one.
		d.b.Block(d.thinking).ThinkingSignature = field
	}
	d.b.Append(d.thinking, text)
}

// detailsText joins the readable parts of a reasoning_details array.
func detailsText(details []json.RawMessage) string {
	var out string
	for _, raw := range details {
		var rd reasoningDetail
		if json.Unmarshal(raw, &rd) != nil {
			continue
		}
		switch rd.Type {
		case "reasoning.text":
			out += rd.Text
		case "reasoning.summary":
			out += rd.Summary
		}
	}
	return out
}

// encryptedDetails keeps OpenRouter's encrypted reasoning with the tool call
// it belongs to, so the next request can hand it back.
func (d *decoder) encryptedDetails(details []json.RawMessage) {
	for _, raw := range details {
		var rd reasoningDetail
		if json.Unmarshal(raw, &rd) != nil || rd.Type != "reasoning.encrypted" || rd.ID == "" || rd.Data == "" {
			continue
		}
		var compact bytes.Buffer
		if json.Compact(&compact, raw) != nil {
			continue
		}
		sig := compact.String()
		if slot := d.slotByID(rd.ID); slot != nil {
			d.b.Block(slot.block).ThoughtSignature = sig
			continue
		}
		if d.details == nil {
			d.details = map[string]string{}
		}
		d.details[rd.ID] = sig
	}
}

// toolCall routes one tool call fragment. The first fragment of a call
// carries its id and name; later ones only the index and more arguments.
// Ollama sends each call whole in one fragment. A fragment with a new id at
// an index already in use starts a new call, for servers that number every
// call 0.
func (d *decoder) toolCall(tc *toolCallDelta) {
	slot := d.findSlot(tc)
	if slot == nil {
		d.text, d.thinking = -1, -1
		block := d.b.BeginToolCall(tc.ID, tc.Function.Name)
		d.calls = append(d.calls, toolSlot{index: tc.Index, id: tc.ID, block: block})
		slot = &d.calls[len(d.calls)-1]
		if sig, ok := d.details[tc.ID]; ok && tc.ID != "" {
			d.b.Block(block).ThoughtSignature = sig
			delete(d.details, tc.ID)
		}
		d.b.AnnounceToolCall(block, tc.Function.Arguments)
		return
	}
	blk := d.b.Block(slot.block)
	if blk.ID == "" && tc.ID != "" {
		blk.ID, slot.id = tc.ID, tc.ID
	}
	if blk.Name == "" && tc.Function.Name != "" {
		blk.Name = tc.Function.Name
	}
	d.b.Append(slot.block, tc.Function.Arguments)
}

func (d *decoder) findSlot(tc *toolCallDelta) *toolSlot {
	if tc.Index.set {
		for i := len(d.calls) - 1; i >= 0; i-- {
			s := &d.calls[i]
			if s.index.set && s.index.value == tc.Index.value {
				if tc.ID != "" && s.id != "" && tc.ID != s.id {
					return nil
				}
				return s
			}
		}
	}
	if tc.ID != "" {
		return d.slotByID(tc.ID)
	}
	if !tc.Index.set && len(d.calls) > 0 {
		return &d.calls[len(d.calls)-1]
	}
	return nil
}

func (d *decoder) slotByID(id string) *toolSlot {
	for i := len(d.calls) - 1; i >= 0; i-- {
		if d.calls[i].id == id {
			return &d.calls[i]
		}
	}
	return nil
}

// setUsage records the counts. Cached prompt tokens are reported inside
// prompt_tokens, so they are taken out of Input; DeepSeek names them
// prompt_cache_hit_tokens. completion_tokens already includes reasoning.
func (d *decoder) setUsage(w *wireUsage) {
	u := core.Usage{Output: w.CompletionTokens}
	if det := w.PromptTokensDetails; det != nil {
		if det.CachedTokens != nil {
			u.CacheRead = *det.CachedTokens
		} else {
			u.CacheRead = w.PromptCacheHitTokens
		}
		u.CacheWrite = det.CacheWriteTokens
	} else {
		u.CacheRead = w.PromptCacheHitTokens
	}
	u.Input = max(0, w.PromptTokens-u.CacheRead-u.CacheWrite)
	// The thinking part of the output, 0 when not reported, as pi 0.87
	// records it.
	reasoning := 0
	if det := w.CompletionTokensDetails; det != nil {
		reasoning = det.ReasoningTokens
	}
	u.Reasoning = &reasoning
	if d.reasoningApart {
		// xAI counts reasoning outside completion_tokens (its total_tokens
		// adds it back): the output is both.
		u.Output += reasoning
	}
	// Groq repeats the same counts in two chunks; report them once.
	if prev := d.b.Usage(); d.usageSeen && prev.Input == u.Input && prev.Output == u.Output &&
		prev.CacheRead == u.CacheRead && prev.CacheWrite == u.CacheWrite {
		return
	}
	d.usageSeen = true
	d.b.SetUsage(u)
}

// stopReason maps the last finish_reason. Reasons that mean the answer was
// cut short by the provider become errors so they are not taken for a
// complete answer.
func (d *decoder) stopReason() (core.StopReason, error) {
	switch d.finish {
	case "", "stop", "end", "eos", "end_turn", "stop_sequence":
		return core.StopEnd, nil
	case "length", "max_tokens":
		return core.StopLength, nil
	case "tool_calls", "function_call", "tool_use":
		return core.StopToolUse, nil
	case "content_filter":
		return core.StopError, &provider.Error{Provider: d.provider, Code: d.finish,
			Message: "the provider's content filter stopped the answer",
			Hint:    "Rephrase the request or remove the content that triggered the filter"}
	case "network_error":
		return core.StopError, &provider.Error{Provider: d.provider, Code: d.finish,
			Message: "the provider lost its connection to the model", Retryable: true}
	default:
		return core.StopError, &provider.Error{Provider: d.provider, Code: d.finish,
			Message: fmt.Sprintf("the provider stopped the answer (finish_reason %q)", d.finish)}
	}
}

// streamError types an error object sent inside the stream.
func (d *decoder) streamError(w *wireError) error {
	e := errorFrom(w, 0)
	e.Provider = d.provider
	e.Message = redact.Secrets(e.Message, d.apiKey)
	if e.Message == "" && e.Code == "" {
		e.Message = "the provider reported an error inside the stream"
	}
	return e
}
