package extension

// ---- protocol version 2: model providers an extension registers (pi's
// pi.registerProvider and unregisterProvider), and the streams of those
// whose models the extension answers itself (pi's streamSimple) ----

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/provider"
)

// Methods of an extension's model providers (version 2).
const (
	// MethodRegisterProvider (extension to cairn) adds a model provider,
	// or replaces the one of the same name, as pi.registerProvider.
	MethodRegisterProvider = "register_provider"
	// MethodUnregisterProvider (extension to cairn) takes one back.
	MethodUnregisterProvider = "unregister_provider"
	// MethodStream (cairn to extension) asks a provider the extension
	// streams itself for one answer; the extension sends its events as
	// stream_event notifications and answers with the finished message.
	// cairn's cancel ends it when the request is aborted.
	MethodStream = "stream"
	// MethodStreamEvent (extension to cairn, a notification) carries
	// events of a stream in flight.
	MethodStreamEvent = "stream_event"
)

// Limits of one stream of an extension's provider.
const (
	// StreamTimeout bounds one answer.
	StreamTimeout = 30 * time.Minute
	// StreamIdleTimeout bounds the silence between two of its events.
	StreamIdleTimeout = 5 * time.Minute
	// maxStreamEvents bounds the events of one notification.
	maxStreamEvents = 4096
)

// streamIdle is StreamIdleTimeout, shorter in tests.
var streamIdle = StreamIdleTimeout

// RegisterProviderParams is a model provider, in models.json's provider
// shape (baseUrl, api, apiKey, headers, authHeader, compat, models), which
// is pi's ProviderConfig without its functions. Stream says the extension
// answers the provider's models itself (pi's streamSimple); otherwise
// cairn's own provider for the models' api does, and the api must be one
// cairn speaks.
type RegisterProviderParams struct {
	Name   string          `json:"name"`
	Config json.RawMessage `json:"config"`
	Stream bool            `json:"stream,omitempty"`
}

// UnregisterProviderParams names a provider to take back.
type UnregisterProviderParams struct {
	Name string `json:"name"`
}

// StreamParams is one answer asked of an extension's provider, in pi-ai's
// streamSimple shape: the model, the context (system prompt, messages as
// pi writes them, tools) and the options.
type StreamParams struct {
	StreamID string        `json:"streamId"`
	Model    core.Model    `json:"model"`
	Context  StreamContext `json:"context"`
	Options  StreamOptions `json:"options"`
}

// StreamContext is pi-ai's Context.
type StreamContext struct {
	SystemPrompt string         `json:"systemPrompt,omitempty"`
	Messages     []core.Message `json:"messages"`
	Tools        []StreamTool   `json:"tools,omitempty"`
}

// StreamTool is a tool the model is offered.
type StreamTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// StreamOptions are pi-ai's SimpleStreamOptions that cairn sends: the
// thinking level, the output cap, and the provider's own key and headers
// (resolved from its apiKey and headers, as pi passes them).
type StreamOptions struct {
	Reasoning core.ThinkingLevel `json:"reasoning,omitempty"`
	MaxTokens int                `json:"maxTokens,omitempty"`
	APIKey    string             `json:"apiKey,omitempty"`
	Headers   map[string]string  `json:"headers,omitempty"`
	SessionID string             `json:"sessionId,omitempty"`
}

// StreamEventParams carries events of the stream StreamID, in order.
type StreamEventParams struct {
	StreamID string        `json:"streamId"`
	Events   []StreamEvent `json:"events"`
}

// StreamEvent is one of pi-ai's AssistantMessageEvents without its
// partial message: the start and end of a text, thinking or tool call
// block (ID and Name on toolcall_start), or a fragment of one (Delta).
// The finished message is the stream's answer.
type StreamEvent struct {
	Type         string `json:"type"`
	ContentIndex int    `json:"contentIndex"`
	Delta        string `json:"delta,omitempty"`
	ID           string `json:"id,omitempty"`
	Name         string `json:"name,omitempty"`
}

// ProviderRegistry is where extensions' providers go: the session's
// model catalog (*catalog.Catalog is one). AddProvider adds or replaces
// provider name with config (models.json's provider shape), answered by
// stream when it is not nil; source names the extension in messages.
type ProviderRegistry interface {
	AddProvider(name string, config json.RawMessage, source string, stream provider.Provider) error
	RemoveProvider(name string)
}

var providerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// provider serves register_provider, unregister_provider and
// stream_event.
func (e *extension) provider(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	switch m.Method {
	case MethodRegisterProvider:
		var p RegisterProviderParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		err := e.registerProvider(p)
		e.m.changed()
		return nil, err
	case MethodUnregisterProvider:
		var p UnregisterProviderParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		err := e.unregisterProvider(p.Name)
		e.m.changed()
		return nil, err
	}
	var p StreamEventParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if len(p.Events) > maxStreamEvents {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "more than %d events at once", maxStreamEvents)
	}
	e.m.provMu.Lock()
	s := e.m.streams[p.StreamID]
	e.m.provMu.Unlock()
	if s == nil || s.e != e {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no stream %q is running", jsonrpc2.Echo(p.StreamID))
	}
	s.add(p.Events)
	return nil, nil
}

func (e *extension) registerProvider(p RegisterProviderParams) *jsonrpc2.Error {
	if !providerName().MatchString(p.Name) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "provider name %q must be 1 to 64 letters, digits, ., _ or -", jsonrpc2.Echo(p.Name))
	}
	reg := e.m.opts.Providers
	if reg == nil {
		return jsonrpc2.Errorf(CodeRefused, "this session takes no providers from extensions")
	}
	e.m.provMu.Lock()
	defer e.m.provMu.Unlock()
	if owner := e.m.providers[p.Name]; owner != nil && owner != e {
		return jsonrpc2.Errorf(CodeRefused, "provider %q is registered by extension %q", p.Name, owner.cfg.Name)
	}
	var stream provider.Provider
	if p.Stream {
		stream = &extStream{e: e, provider: p.Name}
	}
	if err := reg.AddProvider(p.Name, p.Config, "extension "+e.cfg.Name, stream); err != nil {
		return jsonrpc2.Errorf(CodeRefused, "%v", err)
	}
	if e.m.providers == nil {
		e.m.providers = map[string]*extension{}
	}
	e.m.providers[p.Name] = e
	return nil
}

func (e *extension) unregisterProvider(name string) *jsonrpc2.Error {
	e.m.provMu.Lock()
	defer e.m.provMu.Unlock()
	if e.m.providers[name] != e {
		return jsonrpc2.Errorf(CodeRefused, "this extension registered no provider %q", jsonrpc2.Echo(name))
	}
	delete(e.m.providers, name)
	e.m.opts.Providers.RemoveProvider(name)
	return nil
}

// dropProviders takes back the providers of an extension that ended.
func (e *extension) dropProviders() {
	if e.m.opts.Providers == nil {
		return
	}
	e.m.provMu.Lock()
	defer e.m.provMu.Unlock()
	for name, owner := range e.m.providers {
		if owner == e {
			delete(e.m.providers, name)
			e.m.opts.Providers.RemoveProvider(name)
		}
	}
}

// extStream is a provider an extension answers: each Stream is one
// stream request, whose events build the message as cairn's own
// providers build theirs.
type extStream struct {
	e        *extension
	provider string
}

// stream is one answer in flight.
type stream struct {
	e *extension
	b *provider.Builder
	// blocks maps the extension's content indexes to the builder's.
	blocks map[int]int
	// touch is told of every notification, for the idle limit.
	touch chan struct{}
}

func (s *stream) add(events []StreamEvent) {
	select {
	case s.touch <- struct{}{}:
	default:
	}
	for _, ev := range events {
		i, open := s.blocks[ev.ContentIndex]
		switch ev.Type {
		case "text_start":
			s.blocks[ev.ContentIndex] = s.b.BeginText()
		case "thinking_start":
			s.blocks[ev.ContentIndex] = s.b.BeginThinking()
		case "toolcall_start":
			s.blocks[ev.ContentIndex] = s.b.BeginToolCall(ev.ID, ev.Name)
		case "text_delta", "thinking_delta", "toolcall_delta":
			if open {
				s.b.Append(i, ev.Delta)
			}
		case "text_end", "thinking_end", "toolcall_end":
			if open && s.b.IsOpen(i) {
				s.b.End(i)
			}
		case "start":
			s.b.Start()
		}
	}
}

// Stream implements provider.Provider: the extension answers req.
func (p *extStream) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	b := provider.NewBuilder(&req.Model, emit)
	var idBytes [12]byte
	_, _ = rand.Read(idBytes[:])
	s := &stream{e: p.e, b: b, blocks: map[int]int{}, touch: make(chan struct{}, 1)}
	id := hex.EncodeToString(idBytes[:])
	m := p.e.m
	m.provMu.Lock()
	if m.streams == nil {
		m.streams = map[string]*stream{}
	}
	m.streams[id] = s
	m.provMu.Unlock()
	defer func() {
		m.provMu.Lock()
		delete(m.streams, id)
		m.provMu.Unlock()
	}()
	params := StreamParams{StreamID: id, Model: req.Model,
		Context: StreamContext{SystemPrompt: req.System, Messages: req.Messages},
		Options: StreamOptions{Reasoning: req.Thinking, MaxTokens: req.MaxTokens, APIKey: req.APIKey, Headers: req.Headers, SessionID: req.SessionID}}
	if params.Context.Messages == nil {
		params.Context.Messages = []core.Message{}
	}
	if params.Options.Reasoning == core.ThinkingOff {
		params.Options.Reasoning = ""
	}
	for _, t := range req.Tools {
		params.Context.Tools = append(params.Context.Tools, StreamTool{Name: t.Name, Description: t.Description, Parameters: provider.ToolParameters(t)})
	}
	sctx, cancel := context.WithTimeoutCause(ctx, StreamTimeout, fmt.Errorf("no answer within %v", StreamTimeout))
	defer cancel()
	idle, stopIdle := context.WithCancelCause(sctx)
	defer stopIdle(nil)
	go func() {
		t := time.NewTimer(streamIdle)
		defer t.Stop()
		for {
			select {
			case <-s.touch:
				t.Reset(streamIdle)
			case <-t.C:
				stopIdle(fmt.Errorf("no event for %v", streamIdle))
				return
			case <-idle.Done():
				return
			}
		}
	}()
	raw, err := p.e.callOp(idle, MethodStream, params)
	if err != nil {
		if ctx.Err() != nil {
			return provider.Fail(ctx, b, err)
		}
		var rpcErr *jsonrpc2.Error
		switch {
		case idle.Err() != nil:
			err = fmt.Errorf("extension %q's provider %s: %w", p.e.cfg.Name, p.provider, context.Cause(idle))
		case errors.As(err, &rpcErr):
			err = fmt.Errorf("extension %q's provider %s: %s", p.e.cfg.Name, p.provider, rpcErr.Message)
		default:
			err = fmt.Errorf("extension %q's provider %s: %w", p.e.cfg.Name, p.provider, p.e.why(err))
		}
		return b.Fail(core.StopError, err), &provider.Error{Provider: p.provider, Message: err.Error(), Err: err}
	}
	return finish(ctx, b, raw, p.provider)
}

// finish ends the message with the extension's answer: its stop reason,
// usage, error and the blocks' final values (a provider's answer is the
// authority where its events said less).
func finish(ctx context.Context, b *provider.Builder, raw json.RawMessage, name string) (*core.AssistantMessage, error) {
	msg, derr := core.DecodeMessage(raw)
	final, ok := msg.(*core.AssistantMessage)
	if derr != nil || !ok {
		err := fmt.Errorf("the provider %s answered something that is not an assistant message: %v", name, derr)
		return b.Fail(core.StopError, err), &provider.Error{Provider: name, Message: err.Error(), Err: err}
	}
	out := b.Message()
	// Blocks the events did not carry (or carried less of) take the
	// answer's content.
	if len(final.Content) >= len(out.Content) {
		b.EndAll()
		out.Content = final.Content
	}
	b.SetUsage(final.Usage)
	if final.ResponseID != "" {
		b.SetResponseID(final.ResponseID)
	}
	switch final.StopReason {
	case core.StopError, core.StopAborted:
		err := errors.New(final.ErrorMessage)
		if final.ErrorMessage == "" {
			err = fmt.Errorf("the provider %s ended with %s", name, final.StopReason)
		}
		if final.StopReason == core.StopAborted || ctx.Err() != nil {
			return b.Fail(core.StopAborted, err), &provider.Error{Provider: name, Message: err.Error(), Err: err}
		}
		return b.Fail(core.StopError, err), &provider.Error{Provider: name, Message: err.Error(), Err: err}
	}
	reason := final.StopReason
	if reason == "" {
		reason = core.StopEnd
	}
	return b.Finish(reason), nil
}

// registerProviders registers the providers of an initialize result; one
// that cannot be used is told as a warning, and the rest go on, as pi
// reports a failing registration and loads the extension.
func (e *extension) registerProviders(r InitializeResult) {
	if len(r.Providers) == 0 {
		return
	}
	if r.ProtocolVersion < 2 {
		e.m.showInOrder(core.Notice{Level: core.NotifyWarning, Message: fmt.Sprintf("extension %q registers providers, which protocol version %d does not have", e.cfg.Name, r.ProtocolVersion)})
		return
	}
	for _, p := range r.Providers {
		if err := e.registerProvider(p); err != nil {
			e.m.showInOrder(core.Notice{Level: core.NotifyWarning, Message: fmt.Sprintf("extension %q: provider %s not registered: %s", e.cfg.Name, jsonrpc2.Echo(p.Name), err.Message)})
		}
	}
}
