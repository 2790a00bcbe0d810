package openairesp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/redact"
)

// errIncomplete is the message of a stream that ended without a terminal
// event: the connection closed cleanly but the answer is cut short.
const errIncomplete = "stream ended before the response was complete"

// itemState tracks one output item of the response while it streams.
type itemState struct {
	kind  string // "reasoning", "message" or "function_call"
	block int    // index of the content block it feeds
	parts int    // reasoning summary parts seen so far
}

// decoder turns Responses API stream events into Builder calls. Items are
// keyed by output_index, so deltas find their block even if a server
// interleaves items.
type decoder struct {
	b        *provider.Builder
	provider string
	apiKey   string // redacted from error messages the server sends
	items    map[int]*itemState
	reason   core.StopReason
	done     bool
	scan     jsonscan.Scanner // reused for every event the fast paths read
}

func newDecoder(b *provider.Builder, providerName, apiKey string) *decoder {
	return &decoder{b: b, provider: providerName, apiKey: apiKey, items: make(map[int]*itemState, 4)}
}

// run reads events until the terminal one and returns the stop reason.
func (d *decoder) run(ctx context.Context, body io.Reader) (core.StopReason, error) {
	sse := provider.NewSSEDecoder(body)
	for {
		ev, err := sse.Next()
		if err == io.EOF {
			return "", &provider.Error{Provider: d.provider, Message: errIncomplete, Retryable: true}
		}
		if err != nil {
			return "", provider.StreamError(ctx, d.provider, err)
		}
		if err := d.handle(ev.Event, ev.Data); err != nil {
			return "", err
		}
		if d.done {
			return d.reason, nil
		}
	}
}

// Wire shapes of the events we read. Fields we do not use are left out so
// decoding skips them.
type (
	deltaEvent struct {
		OutputIndex int    `json:"output_index"`
		Delta       string `json:"delta"`
	}
	argumentsDoneEvent struct {
		OutputIndex int    `json:"output_index"`
		Arguments   string `json:"arguments"`
	}
	summaryPartEvent struct {
		OutputIndex int `json:"output_index"`
	}
	itemEvent struct {
		OutputIndex int             `json:"output_index"`
		Item        json.RawMessage `json:"item"`
	}
	outputItem struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Phase     string `json:"phase"`
		Summary   []struct {
			Text string `json:"text"`
		} `json:"summary"`
		Content []struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Refusal string `json:"refusal"`
		} `json:"content"`

		// encodedArguments holds the arguments still JSON-encoded when the
		// fast path read the item; see decoder.arguments.
		encodedArguments []byte
		// raw is the item as the server sent it: a reasoning item's replay
		// state.
		raw []byte
	}
	responseEvent struct {
		Response struct {
			ID                string    `json:"id"`
			Model             string    `json:"model"`
			Status            string    `json:"status"`
			Usage             *usage    `json:"usage"`
			Error             *apiError `json:"error"`
			IncompleteDetails *struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		} `json:"response"`
	}
	usage struct {
		InputTokens        int `json:"input_tokens"`
		OutputTokens       int `json:"output_tokens"`
		InputTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	}
	// errorEvent is the "error" event. The documented shape has code and
	// message at the top level; real streams also nest them under "error".
	errorEvent struct {
		Code    flexString `json:"code"`
		Message string     `json:"message"`
		Error   *apiError  `json:"error"`
	}
	apiError struct {
		Type    string     `json:"type"`
		Code    flexString `json:"code"`
		Message string     `json:"message"`
	}
)

// flexString accepts a JSON string, number or null, since error codes come
// as any of them depending on the server.
type flexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	*f = flexString(b)
	return nil
}

// handle applies one event. name is the SSE event name; the JSON type is
// read only when a server leaves the name out.
func (d *decoder) handle(name string, data []byte) error {
	if name == "" || name == "message" {
		if bytes.Equal(bytes.TrimSpace(data), []byte("[DONE]")) {
			return nil
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return d.malformed("event", err)
		}
		name = head.Type
	}
	switch name {
	case "response.created":
		return d.created(data)
	case "response.output_item.added":
		return d.itemAdded(data)
	case "response.reasoning_summary_part.added":
		return d.summaryPartAdded(data)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		return d.delta(name, data, "reasoning")
	case "response.output_text.delta", "response.refusal.delta":
		return d.delta(name, data, "message")
	case "response.function_call_arguments.delta":
		return d.delta(name, data, "function_call")
	case "response.function_call_arguments.done":
		return d.argumentsDone(data)
	case "response.output_item.done":
		return d.itemDone(data)
	case "response.completed", "response.done", "response.incomplete":
		return d.completed(name, data)
	case "response.failed":
		return d.failed(data)
	case "error":
		return d.errorEvent(data)
	}
	return nil
}

func (d *decoder) malformed(what string, err error) error {
	return &provider.Error{Provider: d.provider, Message: "malformed " + what + " in the response stream: " + err.Error(), Err: err}
}

func (d *decoder) itemAdded(data []byte) error {
	index, item, err := d.itemEvent("response.output_item.added", data)
	if err != nil {
		return err
	}
	if st := d.open(index, &item); st != nil && st.kind == "function_call" {
		args, err := d.arguments(&item)
		if err != nil {
			return err
		}
		d.b.Append(st.block, args)
	}
	return nil
}

// itemEvent reads an output_item event's index and item.
func (d *decoder) itemEvent(name string, data []byte) (int, outputItem, error) {
	index, raw, ok := itemFields(&d.scan, data)
	if !ok {
		var ev itemEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return 0, outputItem{}, d.malformed(name, err)
		}
		index, raw = ev.OutputIndex, ev.Item
	}
	if item, args, ok := callFields(&d.scan, raw); ok && item.Type == "function_call" {
		item.encodedArguments = args
		item.raw = raw
		return index, item, nil
	}
	var item outputItem
	if err := json.Unmarshal(raw, &item); err != nil {
		return 0, outputItem{}, d.malformed("output item", err)
	}
	item.raw = raw
	return index, item, nil
}

// arguments returns a function call item's arguments, decoding them if the
// fast path left them encoded.
func (d *decoder) arguments(item *outputItem) (string, error) {
	if item.encodedArguments == nil {
		return item.Arguments, nil
	}
	if args, ok := decodeString(&d.scan, item.encodedArguments); ok {
		return args, nil
	}
	var args string
	if err := json.Unmarshal(item.encodedArguments, &args); err != nil {
		return "", d.malformed("function call arguments", err)
	}
	return args, nil
}

// open starts the block for an item and returns its state, or nil for item
// types we do not show (web searches, other built-in tools).
func (d *decoder) open(index int, item *outputItem) *itemState {
	var block int
	switch item.Type {
	case "reasoning":
		block = d.b.BeginThinking()
	case "message":
		block = d.b.BeginText()
	case "function_call":
		block = d.b.BeginToolCall(toolCallID(item.CallID, item.ID), item.Name)
	default:
		return nil
	}
	st := &itemState{kind: item.Type, block: block}
	d.items[index] = st
	return st
}

// toolCallID joins a call's two ids as pi does: call_id addresses the
// result, the item id pairs the call with its reasoning on replay.
func toolCallID(callID, itemID string) string {
	if itemID == "" {
		return callID
	}
	return callID + "|" + itemID
}

func (d *decoder) summaryPartAdded(data []byte) error {
	var ev summaryPartEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return d.malformed("response.reasoning_summary_part.added", err)
	}
	st := d.items[ev.OutputIndex]
	if st == nil || st.kind != "reasoning" {
		return nil
	}
	if st.parts > 0 {
		d.b.Append(st.block, "\n\n")
	}
	st.parts++
	return nil
}

func (d *decoder) delta(name string, data []byte, kind string) error {
	index, delta, ok := deltaFields(&d.scan, data)
	if !ok {
		var ev deltaEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return d.malformed(name, err)
		}
		index, delta = ev.OutputIndex, ev.Delta
	}
	if st := d.items[index]; st != nil && st.kind == kind {
		d.b.Append(st.block, delta)
	}
	return nil
}

func (d *decoder) argumentsDone(data []byte) error {
	index, encoded, ok := argumentsFields(&d.scan, data)
	item := outputItem{encodedArguments: encoded}
	if !ok {
		var ev argumentsDoneEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return d.malformed("response.function_call_arguments.done", err)
		}
		index, item = ev.OutputIndex, outputItem{Arguments: ev.Arguments}
	}
	// Some servers send the arguments only here, never as deltas.
	if st := d.items[index]; st != nil && st.kind == "function_call" && d.b.PartialArguments(st.block) == "" {
		args, err := d.arguments(&item)
		if err != nil {
			return err
		}
		d.b.Append(st.block, args)
	}
	return nil
}

// itemDone closes an item's block. The finished item is authoritative: it
// fills in whatever the deltas did not carry and holds the replay state.
func (d *decoder) itemDone(data []byte) error {
	index, item, err := d.itemEvent("response.output_item.done", data)
	if err != nil {
		return err
	}
	st := d.items[index]
	if st == nil || st.kind != item.Type || !d.b.IsOpen(st.block) {
		// A done without its added: open the block now so nothing is lost.
		if st = d.open(index, &item); st == nil {
			return nil
		}
	}
	delete(d.items, index)
	switch item.Type {
	case "reasoning":
		if d.b.Block(st.block).Thinking == "" {
			parts := make([]string, 0, len(item.Summary))
			for _, s := range item.Summary {
				parts = append(parts, s.Text)
			}
			d.b.Append(st.block, strings.Join(parts, "\n\n"))
		}
		// The whole item, encrypted content included, is what the API
		// wants back next turn.
		d.b.Block(st.block).ThinkingSignature = string(item.raw)
	case "message":
		if d.b.Block(st.block).Text == "" {
			var text strings.Builder
			for _, part := range item.Content {
				switch part.Type {
				case "output_text":
					text.WriteString(part.Text)
				case "refusal":
					text.WriteString(part.Refusal)
				}
			}
			d.b.Append(st.block, text.String())
		}
		d.b.Block(st.block).TextSignature = makeTextSignature(item.ID, item.Phase)
	case "function_call":
		if d.b.PartialArguments(st.block) == "" {
			args, err := d.arguments(&item)
			if err != nil {
				return err
			}
			d.b.Append(st.block, args)
		}
		c := d.b.Block(st.block)
		if item.CallID != "" {
			c.ID = toolCallID(item.CallID, item.ID)
		}
		if item.Name != "" {
			c.Name = item.Name
		}
	}
	d.b.End(st.block)
	return nil
}

// created records the response's id and the model that is answering,
// which is often a dated snapshot of the alias asked for.
func (d *decoder) created(data []byte) error {
	var ev responseEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return d.malformed("response.created", err)
	}
	d.b.SetResponseID(ev.Response.ID)
	d.b.SetModelID(ev.Response.Model)
	return nil
}

func (d *decoder) completed(name string, data []byte) error {
	var ev responseEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return d.malformed(name, err)
	}
	r := &ev.Response
	d.b.SetModelID(r.Model)
	if u := r.Usage; u != nil {
		cached := 0
		if u.InputTokensDetails != nil {
			cached = u.InputTokensDetails.CachedTokens
		}
		reasoning := 0 // as pi 0.87 records it: 0 when not reported
		if u.OutputTokensDetails != nil {
			reasoning = u.OutputTokensDetails.ReasoningTokens
		}
		d.b.SetUsage(core.Usage{Input: u.InputTokens - cached, Output: u.OutputTokens, CacheRead: cached, Reasoning: &reasoning})
	}
	status := r.Status
	if status == "" && name == "response.incomplete" {
		status = "incomplete"
	}
	// The Responses API has no finish reason: the status is the nearest
	// thing, with why an incomplete response stopped ("incomplete.max_output_tokens").
	why := ""
	if r.IncompleteDetails != nil {
		why = r.IncompleteDetails.Reason
	}
	if why != "" {
		d.b.SetRawStopReason(status + "." + why)
	} else {
		d.b.SetRawStopReason(status)
	}
	switch status {
	case "incomplete":
		if why != "max_output_tokens" {
			return d.incomplete(why)
		}
		d.reason = core.StopLength
	case "failed", "cancelled":
		return d.responseError(status, r.Error)
	default:
		// completed, and the odd in_progress/queued some servers leave in
		// the final event.
		d.reason = core.StopEnd
	}
	d.done = true
	return nil
}

// incomplete explains a response that stopped short for a reason other than
// the output limit: the content filter, or one added after this was written.
// Like pi, it is an error, so the turn does not pass for an answer.
func (d *decoder) incomplete(why string) error {
	switch why {
	case "content_filter":
		return &provider.Error{
			Provider: d.provider,
			Code:     why,
			Message:  "the response was stopped by the content filter",
			Hint:     "Rephrase the request; sending it again unchanged will likely be stopped again",
		}
	case "":
		return &provider.Error{Provider: d.provider, Message: "the response ended incomplete without saying why"}
	}
	return &provider.Error{Provider: d.provider, Code: why, Message: "the response ended incomplete"}
}

func (d *decoder) failed(data []byte) error {
	var ev responseEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return d.malformed("response.failed", err)
	}
	r := &ev.Response
	d.b.SetRawStopReason(r.Status)
	if r.Error == nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
		return &provider.Error{Provider: d.provider, Message: "response incomplete: " + redact.Secrets(r.IncompleteDetails.Reason, d.apiKey)}
	}
	return d.responseError("failed", r.Error)
}

func (d *decoder) responseError(status string, e *apiError) error {
	if e == nil {
		return &provider.Error{Provider: d.provider, Message: "response " + status + " without an error message"}
	}
	return d.typedError(e)
}

func (d *decoder) errorEvent(data []byte) error {
	var ev errorEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return d.malformed("error event", err)
	}
	e := apiError{Code: ev.Code, Message: ev.Message}
	if ev.Error != nil {
		e = *ev.Error
		if e.Code == "" {
			e.Code = ev.Code
		}
		if e.Message == "" {
			e.Message = ev.Message
		}
	}
	return d.typedError(&e)
}

func (d *decoder) typedError(e *apiError) error {
	code := string(e.Code)
	if code == "" {
		code = e.Type
	}
	msg := redact.Secrets(e.Message, d.apiKey)
	if msg == "" {
		msg = "the response failed"
	}
	return &provider.Error{Provider: d.provider, Code: code, Message: msg, Retryable: retryableCode(code), Hint: codeHint(code)}
}

// retryableCode reports whether an OpenAI error code is worth retrying:
// server trouble and rate limits pass, quota and request errors do not.
func retryableCode(code string) bool {
	switch code {
	case "server_error", "internal_error", "rate_limit_exceeded", "rate_limit_error",
		"overloaded", "overloaded_error", "server_is_overloaded", "service_unavailable", "timeout", "slow_down":
		return true
	}
	return false
}

// codeHint says what a person can do about an error code, if we know.
func codeHint(code string) string {
	if code == "context_length_exceeded" {
		return "The conversation is too long for the model; compact it or start a new session"
	}
	return ""
}
