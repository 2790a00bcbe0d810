// Package google speaks the google-generative-ai wire format: the Gemini
// API's streamGenerateContent endpoint with server-sent events.
//
// Gemini differs from the other wire formats in ways the rest of cairn must
// not see: function calls arrive whole and often without ids, so ids are
// assigned here; opaque thoughtSignature tokens ride on text, thought and
// function call parts and must be sent back on the next turn, or Gemini 3
// rejects the conversation; and the reasoning knob is a token budget on
// Gemini 2.5 but a named level on Gemini 3.
package google

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// API is the wire format name models.json uses for this package.
const API = "google-generative-ai"

// DefaultBaseURL is where the Gemini API lives when a model names no base URL.
const DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"

// keyEnv is the environment variable people keep their Gemini key in; hints
// name it so a person knows what to fix.
const keyEnv = "GEMINI_API_KEY"

// Provider streams answers from the Gemini API. It is safe for concurrent
// use.
type Provider struct {
	opts provider.Options
	// calls numbers the tool call ids this provider invents, so ids stay
	// unique even when two calls start in the same millisecond.
	calls atomic.Uint64
}

// New returns a Provider that talks HTTP as opts says.
func New(opts provider.Options) *Provider {
	return &Provider{opts: opts}
}

// Stream sends req to models/{model}:streamGenerateContent and turns the
// answer into events. See provider.Provider for the contract.
func (p *Provider) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	name := provider.ServiceName(&req.Model, "google")
	r := provider.JSONRequest{
		Provider:   name,
		URL:        streamURL(&req.Model),
		Body:       buildRequest(req),
		APIHeaders: apiKeyHeader,
		Decode:     decodeError,
	}
	return provider.StreamJSON(ctx, p.opts, req, emit, r, func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		s := &stream{p: p, b: b, name: name, key: req.APIKey, cur: -1}
		return s.run(ctx, body)
	})
}

// streamURL builds the endpoint. The key goes in a header, never here.
func streamURL(m *core.Model) string {
	id := strings.TrimPrefix(m.ID, "models/")
	return provider.BaseURL(m.BaseURL, DefaultBaseURL) + "/models/" + url.PathEscape(id) + ":streamGenerateContent?alt=sse"
}

// apiKeyHeader sends the key in a header, never in the URL, so it cannot
// leak through logged URLs or url.Error messages. The model's and the
// request's headers come after it and may replace it, for proxies that
// authenticate differently.
func apiKeyHeader(h http.Header, key string) {
	if key != "" {
		h.Set("x-goog-api-key", key)
	}
}

// newToolCallID invents an id for a function call Gemini sent without one.
// It is unique for this provider's lifetime and safe for every provider's id
// syntax, so the call can later be replayed to another model.
func (p *Provider) newToolCallID(name string) string {
	now := time.Now
	if p.opts.Now != nil {
		now = p.opts.Now
	}
	return fmt.Sprintf("%s_%d_%d", provider.SafeToolCallID(name), now().UnixMilli(), p.calls.Add(1))
}
