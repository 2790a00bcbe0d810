package extension

// ---- protocol version 2: an extension's provider hands its stream to
// one of cairn's wire formats (pi-ai's anthropicMessagesApi(),
// openAIResponsesApi(), ... whose streamSimple a provider extension
// calls with its own base URL, key and headers) ----

import (
	"context"
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/provider"
)

// Methods of the streams an extension asks of cairn's providers.
const (
	// MethodStreamAPI (extension to cairn) streams one answer from the
	// model given, in the wire format of its api, to its base URL, with
	// the key and headers of the options: only those, never the
	// session's credentials. Events come back as stream_event
	// notifications (cairn to extension), and the answer is the
	// finished message. Bounded as a stream is (StreamTimeout).
	MethodStreamAPI = "stream_api"
	// MethodCancelStream (extension to cairn, a notification) ends one
	// of its stream_api calls (its signal aborted).
	MethodCancelStream = "cancel_stream"
)

// StreamAPIParams is one answer an extension asks of cairn's provider of
// Model.API: pi-ai's streamSimple's arguments, with messages as pi
// writes them (user, assistant and toolResult).
type StreamAPIParams struct {
	StreamID string        `json:"streamId"`
	Model    core.Model    `json:"model"`
	Context  APIContext    `json:"context"`
	Options  StreamOptions `json:"options"`
}

// APIContext is pi-ai's Context as an extension sends it.
type APIContext struct {
	SystemPrompt string            `json:"systemPrompt,omitempty"`
	Messages     []json.RawMessage `json:"messages"`
	Tools        []StreamTool      `json:"tools,omitempty"`
}

// CancelStreamParams names a stream_api call to end.
type CancelStreamParams struct {
	StreamID string `json:"streamId"`
}

// APIOpener is a ProviderRegistry that also opens cairn's own provider of
// a wire format (*catalog.Catalog is one), for stream_api.
type APIOpener interface {
	ForAPI(api string) (provider.Provider, error)
}

// streamAPI serves stream_api and cancel_stream.
func (e *extension) streamAPI(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	if m.Method == MethodCancelStream {
		var p CancelStreamParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		e.m.provMu.Lock()
		cancel := e.m.apiStreams[e.cfg.Name+"\x00"+p.StreamID]
		e.m.provMu.Unlock()
		if cancel != nil {
			cancel()
		}
		return nil, nil
	}
	var p StreamAPIParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	opener, ok := e.m.opts.Providers.(APIOpener)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session runs no provider for extensions")
	}
	prov, err := opener.ForAPI(p.Model.API)
	if err != nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "model %s/%s %v", jsonrpc2.Echo(p.Model.Provider), jsonrpc2.Echo(p.Model.ID), err)
	}
	if p.Model.BaseURL == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "the model needs a baseUrl")
	}
	if err := checkOptions(p.Options.Reasoning, p.Options.MaxTokens); err != nil {
		return nil, err
	}
	msgs, rerr := decodeMessages(p.Context.Messages)
	if rerr != nil {
		return nil, rerr
	}
	req := &provider.Request{Model: p.Model, System: p.Context.SystemPrompt, Thinking: p.Options.Reasoning, MaxTokens: p.Options.MaxTokens,
		APIKey: p.Options.APIKey, Headers: p.Options.Headers, SessionID: p.Options.SessionID, Messages: msgs}
	for _, t := range p.Context.Tools {
		req.Tools = append(req.Tools, core.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	ctx, cancel := e.lifeBound(StreamTimeout)
	defer cancel()
	key := e.cfg.Name + "\x00" + p.StreamID
	e.m.provMu.Lock()
	if e.m.apiStreams == nil {
		e.m.apiStreams = map[string]context.CancelFunc{}
	}
	if e.m.apiStreams[key] != nil {
		e.m.provMu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "stream %q is already running", jsonrpc2.Echo(p.StreamID))
	}
	e.m.apiStreams[key] = cancel
	e.m.provMu.Unlock()
	defer func() {
		e.m.provMu.Lock()
		delete(e.m.apiStreams, key)
		e.m.provMu.Unlock()
	}()
	e.mu.Lock()
	c := e.conn
	e.mu.Unlock()
	msg, _ := prov.Stream(ctx, req, func(ev provider.Event) {
		if se, ok := wireEvent(ev); ok {
			_ = c.notify(MethodStreamEvent, StreamEventParams{StreamID: p.StreamID, Events: []StreamEvent{se}})
		}
	})
	// A failed answer is still a message (stopReason error or aborted,
	// with its errorMessage), as pi-ai's streams end.
	raw, err := json.Marshal(msg)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "encode the answer: %v", err)
	}
	return json.RawMessage(raw), nil
}

// wireEvent is a provider event as stream_event carries it; the message
// events (usage, done, error) are the answer's.
func wireEvent(ev provider.Event) (StreamEvent, bool) {
	se := StreamEvent{Type: ev.Type.String(), ContentIndex: ev.Index, Delta: ev.Delta}
	switch ev.Type {
	case provider.EventStart:
		se.ContentIndex = 0
	case provider.EventToolCallStart:
		if b := ev.Block(); b != nil {
			se.ID, se.Name = b.ID, b.Name
		}
	case provider.EventUsage, provider.EventDone, provider.EventError:
		return se, false
	}
	return se, true
}
