// Package openai speaks the Chat Completions wire format (the
// "openai-completions" API): OpenAI's POST /chat/completions and the many
// servers that copy it, such as Ollama, llama.cpp, vLLM, LM Studio,
// OpenRouter and Groq.
//
// The servers agree on the core of the format and differ at the edges: which
// field carries reasoning, whether the developer role, store or
// stream_options exist, how reasoning is switched on, what a tool call id
// looks like. Those differences are settled once per request from the
// model's compat settings, or detected from its provider and base URL as pi
// detects them, so models.json files written for pi work unchanged.
package openai

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// DefaultBaseURL is used when a model names no base URL.
const DefaultBaseURL = "https://api.openai.com/v1"

// Provider streams answers from a Chat Completions server. It holds no
// per-request state, so one Provider serves any number of concurrent
// requests.
type Provider struct {
	opts provider.Options
}

// New returns a Provider that talks HTTP as opts say.
func New(opts provider.Options) *Provider {
	return &Provider{opts: opts}
}

var _ provider.Provider = (*Provider)(nil)

// Stream implements provider.Provider. The API key is sent as a bearer
// token, or not at all when empty, as local servers expect.
func (p *Provider) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	name := provider.ServiceName(&req.Model, "openai")
	c := resolveCompat(&req.Model)
	r := provider.JSONRequest{
		Provider:   name,
		URL:        endpoint(req.Model.BaseURL),
		Body:       buildRequest(req, &c),
		APIHeaders: provider.BearerAuth,
		Decode:     decodeError,
	}
	return provider.StreamJSON(ctx, p.opts, req, emit, r, func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		return readAnswer(ctx, b, body, name, req.APIKey, c.reasoningApart)
	})
}

// readAnswer decodes a 2xx body into b: an event stream, or the single JSON
// object some servers send when they ignore stream:true.
func readAnswer(ctx context.Context, b *provider.Builder, body io.Reader, name, apiKey string, reasoningApart bool) (*core.AssistantMessage, error) {
	// The answer starts with the first chunk, which names it (responseId).
	d := newDecoder(b, name, apiKey)
	d.reasoningApart = reasoningApart
	rd := bufio.NewReader(body)
	var err error
	if startsLikeJSON(rd) {
		err = d.whole(rd)
	} else {
		err = d.run(rd)
	}
	if err != nil {
		var perr *provider.Error
		if !errors.As(err, &perr) {
			err = provider.StreamError(ctx, name, err)
		}
		return provider.Fail(ctx, b, err)
	}
	if ctx.Err() != nil {
		return provider.Fail(ctx, b, provider.NetworkError(name, ctx.Err()))
	}
	reason, err := d.stopReason()
	if err != nil {
		return provider.Fail(ctx, b, err)
	}
	return b.Finish(reason), nil
}

// endpoint appends the Chat Completions path to a base URL such as
// https://api.openai.com/v1 or http://localhost:11434/v1.
func endpoint(baseURL string) string {
	return provider.BaseURL(baseURL, DefaultBaseURL) + "/chat/completions"
}
